import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY, OTHER_KEY } from "../../../test/support/harness.js";

/**
 * A long PDF export shares the process: other requests are answered while it runs, and a reader
 * that goes away stops the work. (Ordering and CPU used, not timings: latency is `pnpm bench`'s.)
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

it("stops writing the PDF soon after the reader goes away", async () => {
  const reader = new AbortController();
  const answer = await fetch(`${browser.url}/export.pdf`, { headers: { cookie: cookie() }, signal: reader.signal });
  let read = 0;
  for await (const chunk of answer.body ?? []) {
    read += (chunk as Uint8Array).length;
    if (read >= 4_096) break;
  }
  reader.abort();
  // Let the sandbox notice, then measure what it still burns: a whole export is seconds of CPU.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const used = process.cpuUsage(before);
  expect((used.user + used.system) / 1_000).toBeLessThan(500);
  expect((await h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
}, 120_000);
