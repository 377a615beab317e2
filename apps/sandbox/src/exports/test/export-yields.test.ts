import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY, OTHER_KEY } from "../../../test/support/harness.js";
import { downloadsEnded } from "./support/download-counts.js";

/**
 * A long PDF export shares the process: other requests are answered while it runs, and a reader
 * that goes away stops the work. (Ordering and outcomes, not timings: latency is `pnpm bench`'s.)
 */
const RECORDS = 8_000;
let h: Harness;
let browser: DashboardHttp;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 1_000_000 });
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const entry = { amount: 100, currency: "TRY", method: "eft", from_account: from, to_account: to };
  for (let made = 0; made < RECORDS; made += 500) {
    const answer = await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments: Array(500).fill(entry) } });
    expect(answer.status).toBe(200);
  }
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
}, 120_000);
afterAll(() => h.close());

const cookie = () => [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ");

it("answers another workspace's request while a long PDF export is still being written", async () => {
  const events: string[] = [];
  const exporting = (async () => {
    const answer = await fetch(`${browser.url}/export.pdf`, { headers: { cookie: cookie() } });
    let first = true;
    for await (const _chunk of answer.body ?? []) {
      if (first) {
        events.push("export started");
        first = false;
      }
    }
    events.push("export done");
  })();
  while (!events.includes("export started")) await new Promise((resolve) => setTimeout(resolve, 5));
  const accounts = await h.call("GET", "/v1/accounts", { key: OTHER_KEY });
  expect(accounts.status).toBe(200);
  events.push("other answered");
  await exporting;
  expect(events).toEqual(["export started", "other answered", "export done"]);
}, 120_000);

const pdfDownloads = (outcome: "completed" | "abandoned" | "failed") => downloadsEnded(h.url, "pdf", outcome);

it("stops writing the PDF once the reader goes away, and counts it as abandoned", async () => {
  const completedBefore = await pdfDownloads("completed");
  const abandonedBefore = await pdfDownloads("abandoned");
  const reader = new AbortController();
  const answer = await fetch(`${browser.url}/export.pdf`, { headers: { cookie: cookie() }, signal: reader.signal });
  let read = 0;
  for await (const chunk of answer.body ?? []) {
    read += (chunk as Uint8Array).length;
    if (read >= 4_096) break;
  }
  reader.abort();
  // The writer runs in this process and yields between pages: it sees the closed connection at a page
  // boundary and stops. A bounded wait for that, not a measure of speed.
  for (let tries = 0; tries < 600 && (await pdfDownloads("abandoned")) === abandonedBefore; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await pdfDownloads("abandoned")).toBe(abandonedBefore + 1);
  expect(await pdfDownloads("completed")).toBe(completedBefore);
  expect((await h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
}, 120_000);
