import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness, KEY, OTHER_KEY } from "../../../../../test/support/harness.js";
import { memoryStores } from "../../../../index.js";
import { configFromEnv, DEFAULT_MEMORY_MAX_PAYMENTS } from "../../../../infrastructure/config/config.js";

/** The in-memory store's bound: a process's memory is finite, PostgreSQL's disk is the answer beyond it. */
describe("the memory store's bound on payments", () => {
  let h: Harness;
  const payment = async (key: string) => {
    const [from, to] = (await h.accounts(key)).filter((a) => a.currency === "TRY").map((a) => a.id);
    return { amount: 100, currency: "TRY", method: "eft", from_account: from, to_account: to };
  };

  beforeAll(async () => {
    // The bound counts every workspace together; this sandbox keeps 3 payments at most.
    h = await harness({ stores: memoryStores({ maxPayments: 3 }) });
  });
  afterAll(() => h.close());

  it("refuses a create beyond it with a 400 in the API's error shape that says what to do, keeping what it holds", async () => {
    expect((await h.call("POST", "/v1/payments", { key: KEY, json: await payment(KEY) })).status).toBe(201);
    expect((await h.call("POST", "/v1/payments", { key: OTHER_KEY, json: await payment(OTHER_KEY) })).status).toBe(201);
    const batch = await h.call("POST", "/v1/payments/batch", {
      key: KEY,
      json: { payments: [await payment(KEY), await payment(KEY)] },
    });
    // One place was left: the first entry takes it, the second is refused; nothing is half made.
    expect(batch.status).toBe(200);
    expect(batch.body.created).toBe(1);
    expect(batch.body.results[1].error.code).toBe("invalid_request");

    const refused = await h.call("POST", "/v1/payments", { key: OTHER_KEY, json: await payment(OTHER_KEY) });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("invalid_request");
    expect(refused.body.message).toContain("limit of 3 (PAYSPEC_MEMORY_MAX_PAYMENTS)");
    expect(refused.body.message).toContain("PostgreSQL (PAYSPEC_DATABASE_URL)");
    const kept = (await h.call("GET", "/v1/payments?limit=100", { key: KEY })).body.data;
    expect(kept).toHaveLength(2);
    expect(h.problems.splice(0)).toEqual([]);
  });

  it("makes room when a workspace is reset, and only as much as that workspace held", async () => {
    await h.control("/reset", {}, KEY);
    expect((await h.call("POST", "/v1/payments", { key: KEY, json: await payment(KEY) })).status).toBe(201);
    expect((await h.call("POST", "/v1/payments", { key: KEY, json: await payment(KEY) })).status).toBe(201);
    // OTHER_KEY still holds its one payment: 3 in all.
    expect((await h.call("POST", "/v1/payments", { key: KEY, json: await payment(KEY) })).status).toBe(400);
  });

  it("is a setting, a million by default", () => {
    expect(configFromEnv({}).memoryMaxPayments).toBe(DEFAULT_MEMORY_MAX_PAYMENTS);
    expect(DEFAULT_MEMORY_MAX_PAYMENTS).toBe(1_000_000);
    expect(configFromEnv({ PAYSPEC_MEMORY_MAX_PAYMENTS: "250000" }).memoryMaxPayments).toBe(250_000);
    expect(() => configFromEnv({ PAYSPEC_MEMORY_MAX_PAYMENTS: "lots" })).toThrow(/PAYSPEC_MEMORY_MAX_PAYMENTS/);
  });
});
