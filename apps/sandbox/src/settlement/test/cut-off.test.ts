import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { clearOfCutoff, clockNow, pastNextCutoff, settlementOff } from "../../../test/support/clock-moves.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";

/**
 * Settlement at the Istanbul midnight (21:00 UTC) after completion, seen from either side of it; and
 * why a test that moves the clock 31 s must first be clear of it (`clearOfCutoff`): a CI run near
 * 21:00 UTC read `settled` where a test expected `completed`.
 */
let h: Harness;
let accounts: [string, string];

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.control("/reset");
  accounts = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
});

/** Moves the workspace's clock to `secondsBefore` the next cut-off; returns that cut-off. */
const toBeforeCutoff = (secondsBefore: number) => pastNextCutoff(h, -secondsBefore);

async function pay(): Promise<string> {
  const [from, to] = accounts;
  const reply = await h.call("POST", "/v1/payments", {
    key: KEY,
    json: { amount: 7, currency: "TRY", method: "eft", from_account: from, to_account: to },
  });
  expect(reply.status).toBe(201);
  return reply.body.id;
}

const read = async (id: string) => (await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body;

it("a payment completed just before the cut-off is settled at that midnight once the clock passes it", async () => {
  const cutoff = await toBeforeCutoff(40);
  const id = await pay();
  await h.control("/clock/advance", { seconds: 31 });
  expect((await read(id)).status).toBe("completed");
  await h.control("/clock/advance", { seconds: 10 });
  const settled = await read(id);
  expect(settled.status).toBe("settled");
  expect(Date.parse(settled.settled_at)).toBe(cutoff);
});

it("clearOfCutoff moves a clock near the cut-off past it, so a payment 31 s old is still only completed", async () => {
  const cutoff = await toBeforeCutoff(20);
  await clearOfCutoff(h);
  expect(await clockNow(h)).toBeGreaterThan(cutoff);
  const id = await pay();
  await h.control("/clock/advance", { seconds: 31 });
  expect((await read(id)).status).toBe("completed");
});

it("clearOfCutoff leaves a clock far from the cut-off where it is", async () => {
  const cutoff = await toBeforeCutoff(3_600);
  await clearOfCutoff(h);
  expect(cutoff - (await clockNow(h))).toBeGreaterThan(3_500_000);
});

it("settlementOff keeps a payment completed across the cut-off, for cases that move the clock on other instances", async () => {
  const cutoff = await toBeforeCutoff(20);
  const id = await pay();
  await settlementOff(h.url);
  await h.control("/clock/advance", { seconds: 31 });
  expect(await clockNow(h)).toBeGreaterThan(cutoff);
  // The first case, with settlement on, had it settled once the clock passed the cut-off.
  expect((await read(id)).status).toBe("completed");
  await h.call("PUT", "/_sandbox/settings/settlement", { key: KEY, json: { enabled: true } });
});
