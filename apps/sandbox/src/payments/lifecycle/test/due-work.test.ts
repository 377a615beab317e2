import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";

/**
 * Thousands of payments falling due at once, on memory and PostgreSQL: the due-work loop completes
 * them with nobody asking (a request does one chunk itself: the store contract proves the bound).
 */
let h: Harness;
beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());

const COUNT = 3_000;

/** How many of the workspace's payments are in `status`, read from the store (no request, so no catch-up). */
async function inStatus(status: "completed" | "pending"): Promise<number> {
  const { payments } = h.sandbox.stores;
  const snapshot = await payments.snapshot(KEY);
  const { total = 0 } = await payments.list(KEY, {
    afterSeq: 0,
    snapshotSeq: snapshot.seq,
    asOfVersion: snapshot.version,
    status,
    limit: 0,
    countTotal: true,
  });
  return total;
}

it("completes payments that fell due with nobody asking (a request does only one chunk: see the store contract)", async () => {
  await h.control("/reset");
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  for (let made = 0; made < COUNT; made += 500) {
    const payments = Array.from({ length: 500 }, () => ({
      amount: 1,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
    }));
    expect((await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments } })).body.created).toBe(500);
  }
  expect(await inStatus("pending")).toBe(COUNT);
  // The clock moved straight in the store, so that no request has done any completion yet.
  await h.sandbox.clocks.advance(`workspace:${KEY}`, 31);
  // With no request at all, the due-work loop completes every one (bounded wait).
  const deadline = Date.now() + 20_000;
  while ((await inStatus("completed")) < COUNT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(await inStatus("completed")).toBe(COUNT);
  expect(await inStatus("pending")).toBe(0);
});
