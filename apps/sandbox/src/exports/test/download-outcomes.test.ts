import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";
import { freshDatabase, onPostgres, TEST_SECRET } from "../../../test/support/test-stores.js";
import { memoryStores, postgresStores, type SandboxStores } from "../../index.js";
import { SandboxSecret } from "../../infrastructure/secret/sandbox-secret.js";
import { EXPORT_PAGE } from "../index.js";
import { downloadsEnded } from "./support/download-counts.js";

/**
 * A CSV download whose listing fails after its first page (the database went away) ends as
 * `failed` in `/metrics`, not `abandoned`: the reader was still there. Counted as abandoned, an
 * operator would read a broken export as people closing their browsers.
 */
let h: Harness;
let browser: DashboardHttp;
/** The listing's pages after the first fail while this is on. */
let failLaterPages = false;

/** The run's stores, with the payments store's later listing pages failing on demand. */
async function storesFailingOnDemand(): Promise<SandboxStores> {
  const stores = onPostgres()
    ? await postgresStores(await freshDatabase(), {
        storedWorkspaceId: (key) => new SandboxSecret(TEST_SECRET).storedWorkspaceId(key),
      })
    : memoryStores();
  const { payments } = stores;
  const failing = new Proxy(payments, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "list") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<typeof payments.list>) => {
        if (failLaterPages && args[1].afterSeq > 0) throw new Error("The database went away.");
        return payments.list(...args);
      };
    },
  });
  return { ...stores, payments: failing };
}

beforeAll(async () => {
  h = await harness({
    stores: await storesFailingOnDemand(),
    ...(onPostgres() ? { secret: TEST_SECRET } : {}),
    completeAfterSeconds: 1_000_000,
  });
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const entry = { amount: 100, currency: "TRY", method: "eft", from_account: from, to_account: to };
  // More than one export page: the second page is the one that fails.
  for (let made = 0; made < EXPORT_PAGE + 500; made += 500) {
    const answer = await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments: Array(500).fill(entry) } });
    expect(answer.status).toBe(200);
  }
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
}, 120_000);
afterAll(() => h?.close());

const csvDownloads = (outcome: "completed" | "abandoned" | "failed") => downloadsEnded(h.url, "csv", outcome);

it("counts a CSV download whose listing failed midway as failed, and a whole one as completed", async () => {
  const cookie = [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
  const whole = await fetch(`${browser.url}/export.csv`, { headers: { cookie } });
  expect((await whole.text()).trim().split("\n")).toHaveLength(EXPORT_PAGE + 500 + 1);
  expect(await csvDownloads("completed")).toBe(1);

  failLaterPages = true;
  try {
    const broken = await fetch(`${browser.url}/export.csv`, { headers: { cookie } });
    // The reader sees the file cut short (the connection ends with an error), never a whole-looking file.
    await expect(broken.text()).rejects.toThrow();
  } finally {
    failLaterPages = false;
  }
  // The server ends its count once the writing has stopped: a bounded wait for it.
  for (let tries = 0; tries < 100 && (await csvDownloads("failed")) === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect([await csvDownloads("failed"), await csvDownloads("abandoned")]).toEqual([1, 0]);
}, 120_000);
