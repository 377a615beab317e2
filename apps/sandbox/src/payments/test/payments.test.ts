import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearOfCutoff } from "../../../test/support/clock-moves.js";
import { type Harness, harness, KEY, OTHER_KEY } from "../../../test/support/harness.js";
import { workspaceScope } from "../../index.js";

let h: Harness;
let tryA: string;
let tryB: string;
let usd: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  const accounts = await h.accounts();
  [tryA, tryB] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  usd = accounts.find((a) => a.currency === "USD")?.id as string;
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const newPayment = (overrides: Record<string, unknown> = {}) => ({
  amount: 150075,
  currency: "TRY",
  method: "bank_transfer",
  from_account: tryA,
  to_account: tryB,
  ...overrides,
});

describe("workspaces and accounts", () => {
  it("seeds TRY, USD and EUR accounts per API key, and separates workspaces", async () => {
    const mine = await h.accounts(KEY);
    const theirs = await h.accounts(OTHER_KEY);
    expect(new Set(mine.map((a) => a.currency))).toEqual(new Set(["TRY", "USD", "EUR"]));
    expect(mine.map((a) => a.id)).not.toEqual(expect.arrayContaining([theirs[0]?.id]));
    const created = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment() });
    expect((await h.call("GET", `/v1/payments/${created.body.id}`, { key: OTHER_KEY })).status).toBe(404);
    expect((await h.call("DELETE", `/v1/payments/${created.body.id}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it("answers 401 in the error shape without a valid key", async () => {
    const missing = await h.call("GET", "/v1/accounts");
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe("unauthorized");
    expect((await h.call("GET", "/v1/accounts", { key: "sk_wrong" })).status).toBe(401);
  });
});

describe("creating payments", () => {
  it("creates a pending payment with created_at, 201 and a Location", async () => {
    const reply = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: newPayment({ description: "Kira", reference: "FTR-1" }),
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      status: "pending",
      amount: 150075,
      currency: "TRY",
      description: "Kira",
      reference: "FTR-1",
    });
    expect(reply.body.id).toMatch(/^pay_/);
    expect(Date.parse(reply.body.created_at)).not.toBeNaN();
    expect(reply.headers.get("location")).toBe(`/v1/payments/${reply.body.id}`);
  });

  it.each([
    ["amount", { amount: 0 }],
    ["amount", { amount: 1.5 }],
    ["method", { method: "direct_debit" }],
    ["currency", { currency: "try" }],
    ["from_account", { from_account: "pay_123" }],
    ["amout", { amout: 5 }],
  ])("rejects a bad %s with 400 naming it", async (field, overrides) => {
    const reply = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment(overrides) });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_request");
    expect(reply.body.param).toBe(field);
    expect(reply.body.message).toContain(field);
  });

  it("requires existing accounts of the payment's currency", async () => {
    const unknown = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: newPayment({ to_account: "acc_doesnotexist" }),
    });
    expect(unknown.body).toMatchObject({ code: "account_not_found", param: "to_account" });
    const mismatch = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment({ to_account: usd }) });
    expect(mismatch.body).toMatchObject({ code: "currency_mismatch", param: "currency" });
    const self = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment({ to_account: tryA }) });
    expect(self.body).toMatchObject({ code: "invalid_request", param: "to_account" });
  });
});

describe("get, cancel and the lifecycle", () => {
  it("cancels a pending payment once; a second cancel is refused", async () => {
    const { body: created } = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment() });
    const cancelled = await h.call("DELETE", `/v1/payments/${created.id}`, { key: KEY });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expect((await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe("cancelled");
    const again = await h.call("DELETE", `/v1/payments/${created.id}`, { key: KEY });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("payment_not_cancellable");
  });

  it("cancels from approved", async () => {
    const { body: created } = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment() });
    await h.control(`/payments/${created.id}/status`, { status: "approved" });
    expect((await h.call("DELETE", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe("cancelled");
  });

  it.each(["processing", "settled", "reconciled", "completed", "failed"])(
    "refuses to cancel a %s payment",
    async (status) => {
      const { body: created } = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment() });
      await h.control(`/payments/${created.id}/status`, { status });
      const reply = await h.call("DELETE", `/v1/payments/${created.id}`, { key: KEY });
      expect(reply.status).toBe(409);
      expect(reply.body.message).toContain(status);
      expect((await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe(status);
    },
  );

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expect((await h.call("GET", "/v1/payments/pay_unknown0000", { key: KEY })).status).toBe(404);
    expect((await h.call("DELETE", "/v1/payments/pay_unknown0000", { key: KEY })).status).toBe(404);
    const malformed = await h.call("GET", "/v1/payments/acc_123", { key: KEY });
    expect(malformed.status).toBe(400);
    expect(malformed.body.param).toBe("id");
  });

  it("completes a pending payment after the configured delay, moving balances within the currency", async () => {
    await clearOfCutoff(h);
    const before = await h.accounts();
    const { body: created } = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment({ amount: 12_345 }) });
    await h.control("/clock/advance", { seconds: 29 });
    expect((await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe("pending");
    await h.control("/clock/advance", { seconds: 2 });
    const done = (await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body;
    expect(done.status).toBe("completed");
    expect(Date.parse(done.completed_at) - Date.parse(done.created_at)).toBe(30_000);
    const after = await h.accounts();
    const balance = (list: typeof before, id: string) => list.find((a) => a.id === id)?.balance as number;
    expect(Math.round((balance(before, tryA) - balance(after, tryA)) * 100)).toBe(12_345);
    expect(Math.round((balance(after, tryB) - balance(before, tryB)) * 100)).toBe(12_345);
  });

  // The in-memory store keeps its accounts list, and the sandbox its answer's text, until a balance
  // moves: reads between moves must never see a stale balance, nor a reset the old ones.
  it("answers every read of the accounts with the balances as they stand, move after move and after a reset", async () => {
    const seeded = await h.accounts();
    const moved = (list: typeof seeded, id: string) =>
      Math.round(
        ((list.find((a) => a.id === id)?.balance as number) - (seeded.find((a) => a.id === id)?.balance as number)) *
          100,
      );
    let standing = seeded;
    for (const [amount, total] of [
      [700, 700],
      [1_300, 2_000],
    ] as const) {
      await h.call("POST", "/v1/payments", { key: KEY, json: newPayment({ amount }) });
      // A pending payment moves nothing: the same balances as the last read.
      expect(await h.accounts()).toEqual(standing);
      await h.control("/clock/advance", { seconds: 31 });
      standing = await h.accounts();
      expect([moved(standing, tryA), moved(standing, tryB)]).toEqual([-total, total]);
    }
    await h.control("/reset");
    expect(await h.accounts()).toEqual(seeded);
  });

  it("fails a payment the debit account cannot cover, moving nothing", async () => {
    const before = await h.accounts();
    const { body: created } = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: newPayment({ amount: 9_000_000_000 }),
    });
    await h.control("/clock/advance", { seconds: 31 });
    expect((await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe("failed");
    expect(await h.accounts()).toEqual(before);
  });

  it("does not complete a cancelled payment", async () => {
    const { body: created } = await h.call("POST", "/v1/payments", { key: KEY, json: newPayment() });
    await h.call("DELETE", `/v1/payments/${created.id}`, { key: KEY });
    await h.control("/clock/advance", { seconds: 60 });
    expect((await h.call("GET", `/v1/payments/${created.id}`, { key: KEY })).body.status).toBe("cancelled");
  });
});

describe("batches", () => {
  it("processes each entry on its own and answers in input order", async () => {
    const reply = await h.call("POST", "/v1/payments/batch", {
      key: KEY,
      json: {
        payments: [newPayment(), newPayment({ amount: 0 }), newPayment({ to_account: usd }), newPayment({ amount: 7 })],
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ created: 2, failed: 2 });
    expect(reply.body.results.map((r: { index: number; outcome: string }) => [r.index, r.outcome])).toEqual([
      [0, "created"],
      [1, "failed"],
      [2, "failed"],
      [3, "created"],
    ]);
    expect(reply.body.results[1].error).toMatchObject({ code: "invalid_request", param: "amount" });
    expect(reply.body.results[2].error.code).toBe("currency_mismatch");
    const created = await h.call("GET", `/v1/payments/${reply.body.results[3].payment.id}`, { key: KEY });
    expect(created.body.amount).toBe(7);
  });

  it("accepts 500 entries and rejects 501 or none whole", async () => {
    const many = (n: number) => ({ payments: Array.from({ length: n }, () => newPayment()) });
    expect((await h.call("POST", "/v1/payments/batch", { key: KEY, json: many(500) })).body.created).toBe(500);
    const tooMany = await h.call("POST", "/v1/payments/batch", { key: KEY, json: many(501) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.param).toBe("payments");
    expect((await h.call("POST", "/v1/payments/batch", { key: KEY, json: many(0) })).status).toBe(400);
    expect((await h.call("GET", "/v1/payments?limit=1", { key: KEY })).body.pagination.total).toBe(500);
  });
});

describe("listing", () => {
  async function createN(n: number) {
    const reply = await h.call("POST", "/v1/payments/batch", {
      key: KEY,
      json: { payments: Array.from({ length: n }, (_, i) => newPayment({ amount: i + 1 })) },
    });
    return reply.body.results.map((r: { payment: { id: string } }) => r.payment.id) as string[];
  }

  async function listAll(query: string) {
    const ids: string[] = [];
    let page = await h.call("GET", `/v1/payments?${query}`, { key: KEY });
    const totals = [page.body.pagination.total];
    ids.push(...page.body.data.map((p: { id: string }) => p.id));
    while (page.body.pagination.has_more) {
      expect(page.body.pagination.next_cursor).toMatch(/^cur_/);
      page = await h.call("GET", `/v1/payments?cursor=${page.body.pagination.next_cursor}`, { key: KEY });
      totals.push(page.body.pagination.total);
      ids.push(...page.body.data.map((p: { id: string }) => p.id));
    }
    expect(page.body.pagination.next_cursor).toBeUndefined();
    return { ids, totals };
  }

  it("pages through every record once, oldest first, with total", async () => {
    const created = await createN(23);
    const { ids, totals } = await listAll("limit=5");
    expect(ids).toEqual(created);
    expect(new Set(totals)).toEqual(new Set([23]));
  });

  it("keeps pages disjoint and complete while payments are created concurrently", async () => {
    const created = await createN(30);
    const ids: string[] = [];
    let page = await h.call("GET", "/v1/payments?limit=7", { key: KEY });
    ids.push(...page.body.data.map((p: { id: string }) => p.id));
    while (page.body.pagination.has_more) {
      await createN(3);
      page = await h.call("GET", `/v1/payments?cursor=${page.body.pagination.next_cursor}`, { key: KEY });
      ids.push(...page.body.data.map((p: { id: string }) => p.id));
      expect(page.body.pagination.total).toBe(30);
    }
    expect(ids).toEqual(created);
  });

  it("filters by status and by inclusive UTC date range", async () => {
    const [first, second] = await createN(3);
    await h.call("DELETE", `/v1/payments/${first}`, { key: KEY });
    await h.call("DELETE", `/v1/payments/${second}`, { key: KEY });
    const cancelled = await listAll("status=cancelled&limit=1");
    expect(cancelled.ids).toEqual([first, second]);
    const today = new Date(await h.sandbox.clocks.now(workspaceScope(KEY))).toISOString().slice(0, 10);
    expect((await listAll(`from=${today}&to=${today}`)).ids).toHaveLength(3);
    expect((await listAll("from=2000-01-01&to=2000-01-02")).ids).toHaveLength(0);
  });

  it("rejects limit 10001, bad dates, foreign cursors and changed filters with 400", async () => {
    await createN(3);
    for (const [query, param] of [
      ["limit=10001", "limit"],
      ["limit=0", "limit"],
      ["from=2026-13-01", "from"],
      ["from=2026-11-02&to=2026-11-01", "from"],
      ["status=done", "status"],
      ["cursor=nope", "cursor"],
      ["cursor=cur_bm90LWpzb24", "cursor"],
    ] as const) {
      const reply = await h.call("GET", `/v1/payments?${query}`, { key: KEY });
      expect(reply.status, query).toBe(400);
      expect(reply.body.param, query).toBe(param);
    }
    const page = await h.call("GET", "/v1/payments?limit=1", { key: KEY });
    const cursor = page.body.pagination.next_cursor;
    expect((await h.call("GET", `/v1/payments?cursor=${cursor}`, { key: OTHER_KEY })).status).toBe(400);
    expect((await h.call("GET", `/v1/payments?cursor=${cursor}&status=pending`, { key: KEY })).body.param).toBe(
      "status",
    );
  });

  it("serves 10,000 records in one page", async () => {
    for (let i = 0; i < 20; i++) await createN(500);
    const page = await h.call("GET", "/v1/payments?limit=10000", { key: KEY });
    expect(page.body.data).toHaveLength(10_000);
    expect(page.body.pagination).toMatchObject({ total: 10_000, limit: 10_000, has_more: false });
  });
});
