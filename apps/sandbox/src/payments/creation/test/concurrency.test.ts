import { afterAll, beforeAll, expect, it } from "vitest";
import { clearOfCutoff } from "../../../../test/support/clock-moves.js";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";

let h: Harness;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());

it("200 parallel creates and cancels lose no payment, never transition twice, and conserve money", async () => {
  await clearOfCutoff(h);
  const accounts = await h.accounts();
  const [a, b] = accounts.filter((x) => x.currency === "TRY").map((x) => x.id);
  const totalBefore = accounts
    .filter((x) => x.currency === "TRY")
    .reduce((sum, x) => sum + Math.round(x.balance * 100), 0);

  const created = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      h.call("POST", "/v1/payments", {
        key: KEY,
        json: { amount: 1000 + i, currency: "TRY", method: "eft", from_account: a, to_account: b },
      }),
    ),
  );
  expect(created.every((r) => r.status === 201)).toBe(true);
  const ids = created.map((r) => r.body.id as string);
  expect(new Set(ids).size).toBe(200);

  // Every payment gets two racing cancels; exactly one may win.
  const cancels = await Promise.all(
    ids.flatMap((id) => [
      h.call("DELETE", `/v1/payments/${id}`, { key: KEY }),
      h.call("DELETE", `/v1/payments/${id}`, { key: KEY }),
    ]),
  );
  const wins = cancels.filter((r) => r.status === 200).length;
  const refusals = cancels.filter((r) => r.status === 409).length;
  expect(wins).toBe(200);
  expect(refusals).toBe(200);

  // Half again, racing completion: create 100 more and let them complete while cancels fly.
  const more = await Promise.all(
    Array.from({ length: 100 }, () =>
      h.call("POST", "/v1/payments", {
        key: KEY,
        json: { amount: 500, currency: "TRY", method: "card", from_account: a, to_account: b },
      }),
    ),
  );
  await h.control("/clock/advance", { seconds: 31 });
  await Promise.all(more.map((r) => h.call("DELETE", `/v1/payments/${r.body.id}`, { key: KEY })));

  const listed = await h.call("GET", "/v1/payments?limit=10000", { key: KEY });
  expect(listed.body.pagination.total).toBe(300);
  const statuses = listed.body.data.map((p: { status: string }) => p.status);
  expect(statuses.filter((s: string) => s === "cancelled")).toHaveLength(200);
  expect(statuses.filter((s: string) => s === "completed")).toHaveLength(100);

  const after = (await h.accounts()).filter((x) => x.currency === "TRY");
  const totalAfter = after.reduce((sum, x) => sum + Math.round(x.balance * 100), 0);
  expect(totalAfter).toBe(totalBefore);
  const moved = Math.round(
    ((after.find((x) => x.id === b)?.balance as number) - (accounts.find((x) => x.id === b)?.balance as number)) * 100,
  );
  expect(moved).toBe(100 * 500);
  expect(h.problems).toEqual([]);
});
