import { PassThrough } from "node:stream";
import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { DEMO_API_KEYS, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ApiError,
  ConfigurationError,
  createPaymentsClient,
  type PaymentCreate,
  PaymentsApiError,
  type PaymentsClient,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from "../src/index.js";

let client: PaymentsClient;
let from: string;
let to: string;

const suite = proxiedDuringSuite(() => startSandbox({ completeAfterSeconds: 30 }), { beforeAll, afterAll, beforeEach });
beforeEach(async () => {
  client = createPaymentsClient({
    baseUrl: suite.proxy.url,
    apiKey: DEMO_API_KEYS[0],
    retry: { baseDelayMs: 1 },
    validate: true,
  });
  const accounts = await client.listAccounts();
  [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  suite.proxy.clear();
});

const payment = (overrides: Partial<PaymentCreate> = {}): PaymentCreate => ({
  amount: 1000,
  currency: "TRY",
  method: "eft",
  from_account: from,
  to_account: to,
  ...overrides,
});

const requestsTo = (method: string, path: string) =>
  suite.proxy.seen.filter((r) => r.method === method && r.url.split("?")[0] === path).length;

describe("payments client against the sandbox", () => {
  it("creates, reads, cancels, and throws a typed 409 on a second cancel", async () => {
    const created = await client.createPayment(payment({ reference: "FTR-1" }));
    expect(created.status).toBe("pending");
    expect((await client.getPayment(created.id)).reference).toBe("FTR-1");
    expect((await client.cancelPayment(created.id)).status).toBe("cancelled");
    const error = await client.cancelPayment(created.id).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "payment_not_cancellable" });
    expect(error.body).toMatchObject({ code: "payment_not_cancellable" });
  });

  it("sends 1,201 payments as 3 batch calls and returns one outcome per input in order", async () => {
    const inputs = Array.from({ length: 1201 }, (_, i) => payment({ amount: i + 1 }));
    inputs[600] = payment({ to_account: "acc_missing" });
    const outcomes = await client.createMany(inputs);
    expect(requestsTo("POST", "/v1/payments/batch")).toBe(3);
    expect(outcomes.map((o) => o.index)).toEqual(inputs.map((_, i) => i));
    expect(outcomes[600]).toMatchObject({
      outcome: "failed",
      error: { code: "account_not_found", param: "to_account" },
    });
    const created = outcomes.filter((o) => o.outcome === "created");
    expect(created).toHaveLength(1200);
    const first = outcomes[0];
    expect(first?.outcome === "created" && first.payment.amount).toBe(1);
    const last = outcomes[1200];
    expect(last?.outcome === "created" && last.payment.amount).toBe(1201);
  });

  it("pages through many pages with for await, each record once, in order", async () => {
    const outcomes = await client.createMany(Array.from({ length: 2345 }, (_, i) => payment({ amount: i + 1 })));
    suite.proxy.clear();
    const seen: number[] = [];
    for await (const p of client.payments({ limit: 100 })) seen.push(p.amount);
    expect(seen).toEqual(outcomes.map((_, i) => i + 1));
    expect(requestsTo("GET", "/v1/payments")).toBe(24);
    let pages = 0;
    for await (const page of client.pages({ limit: 1000, status: "pending" })) {
      pages++;
      expect(page.pagination.total).toBe(2345);
    }
    expect(pages).toBe(3);
  });

  it("exports CSV with the dashboard's columns in order and correct quoting, and JSON Lines", async () => {
    await client.createPayment(payment({ description: 'Kira, "Kasım"\nikinci satır', reference: "FTR-9" }));
    await client.createPayment(payment({ amount: 250 }));
    const csv = await collect((out) => client.exportPayments(out, { format: "csv" }));
    const lines = csv.split("\n");
    expect(lines[0]).toBe(
      "id,amount,currency,method,status,from_account,to_account,reference,description,created_at,settled_at",
    );
    expect(csv).toContain(`,FTR-9,"Kira, ""Kasım""\nikinci satır",`);
    expect(csv.endsWith("\n")).toBe(true);
    const jsonl = await collect((out) => client.exportPayments(out, { format: "jsonl" }));
    const records = jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.amount)).toEqual([1000, 250]);
  });

  it("validates requests before sending and names the bad field", async () => {
    const error = await client.createPayment(payment({ amount: 0 })).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0].path).toBe("body.amount");
    expect(error.message).toContain("body.amount");
    expect(suite.proxy.seen).toHaveLength(0);
  });
});

describe("retries and failures", () => {
  // Faults the sandbox itself declares: it knows what it stored when the answer went wrong.
  const direct = (options: { timeoutMs?: number; retry?: { maxRetries?: number; baseDelayMs: number } } = {}) =>
    createPaymentsClient({
      baseUrl: suite.target.url,
      apiKey: DEMO_API_KEYS[0],
      retry: { baseDelayMs: 1 },
      ...options,
    });
  const struck = async (fault: string) => (await suite.target.faults.list()).find((f) => f.fault === fault)?.struck;
  const references = async () => {
    const listed = [];
    for await (const p of client.payments()) listed.push(p.reference);
    return listed;
  };

  it("retries a GET after 503 and succeeds", async () => {
    await suite.target.faults.next("listAccounts", "error-503", { times: 2, retryAfterSeconds: 0 });
    expect(await direct().listAccounts()).toHaveLength(6);
    // Both 503s struck and the third attempt answered: three requests.
    expect(await struck("error-503")).toBe(2);
  });

  it("does not retry a create after a timeout: it may have been created", async () => {
    // The sandbox stores the payment, then holds the answer past the client's timeout.
    await suite.target.faults.next("createPayment", "latency-after", { latencyMs: 600 });
    const slow = direct({ timeoutMs: 150, retry: { maxRetries: 3, baseDelayMs: 1 } });
    await expect(slow.createPayment(payment({ reference: "slow-1" }))).rejects.toBeInstanceOf(TimeoutError);
    // A retry would have found the fault spent and stored a second payment.
    expect(await references()).toEqual(["slow-1"]);
  });

  it("reports a batch lost to a timeout as unknown, never re-sending it", async () => {
    await suite.target.faults.next("createPaymentBatch", "latency-after", { latencyMs: 600 });
    const slow = direct({ timeoutMs: 150 });
    const outcomes = await slow.createMany([payment({ reference: "lost-1" }), payment({ reference: "lost-2" })]);
    expect(outcomes.map((o) => o.outcome)).toEqual(["unknown", "unknown"]);
    // Stored once, by the one request the sandbox answered late.
    expect(await references()).toEqual(["lost-1", "lost-2"]);
  });

  it("tolerates unknown enum values and extra fields, but not a missing required field", async () => {
    const created = await client.createPayment(payment());
    suite.proxy.inject({
      when: (r) => r.method === "GET",
      fault: { kind: "rewrite", rewrite: (p) => ({ ...p, status: "on_hold", risk: "low" }) },
      times: 1,
    });
    expect((await client.getPayment(created.id)).status).toBe("on_hold");
    suite.proxy.inject({
      when: (r) => r.method === "GET",
      fault: { kind: "rewrite", rewrite: ({ id: _id, ...rest }) => rest },
      times: 1,
    });
    const error = await client.getPayment(created.id).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues[0].path).toBe("id");
  });
});

async function collect(write: (out: PassThrough) => Promise<number>): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  await write(out);
  return Buffer.concat(chunks).toString("utf8");
}

describe("every problem at once", () => {
  it("gives every invalid field the API named, typed, on the error", async () => {
    const lenient = createPaymentsClient({ baseUrl: suite.proxy.url, apiKey: DEMO_API_KEYS[0], validate: false });
    const error = await lenient
      .createPayment({ ...payment(), amount: 0, currency: "try" } as PaymentCreate)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect((error as PaymentsApiError).fieldErrors.map((e) => e.field)).toEqual(["amount", "currency"]);
  });

  it("names the one field a rule is about: param, the typed body, and fieldErrors from param when there is no list", async () => {
    const error = await client.getPayment("pay_0000000000000000").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    const refused = error as PaymentsApiError;
    expect(refused.errorBody?.code).toBe("not_found");
    expect(refused.param).toBe("id");
    expect(refused.fieldErrors).toEqual([{ field: "id", message: refused.apiMessage }]);
  });

  it("refuses an empty or blank API key when the client is made, before any request", () => {
    for (const apiKey of ["", "   "]) {
      const made = () => createPaymentsClient({ baseUrl: suite.proxy.url, apiKey });
      expect(made).toThrow(ConfigurationError);
      expect(made).toThrow(/^apiKey is empty: pass the workspace's API key/);
    }
    expect(suite.proxy.seen).toHaveLength(0);
  });
});
