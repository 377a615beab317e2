import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { DEMO_API_KEYS, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createPaymentsClient,
  NetworkError,
  type PaymentCreate,
  PaymentsApiError,
  type PaymentsClient,
  PayspecError,
  ProtocolError,
  TimeoutError,
} from "../src/index.js";

let client: PaymentsClient;
let from: string;
let to: string;

const suite = proxiedDuringSuite(() => startSandbox({ completeAfterSeconds: 30 }), { beforeAll, afterAll, beforeEach });
beforeEach(async () => {
  client = createPaymentsClient({ baseUrl: suite.proxy.url, apiKey: DEMO_API_KEYS[0], retry: { baseDelayMs: 1 } });
  [from, to] = (await client.listAccounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  suite.proxy.clear();
});

const payment = (reference: string, amount = 1000): PaymentCreate => ({
  amount,
  currency: "TRY",
  method: "eft",
  from_account: from,
  to_account: to,
  reference,
});
const batchCall = (r: { method: string; url: string }) => r.method === "POST" && r.url === "/v1/payments/batch";
const inputs = (count: number) => Array.from({ length: count }, (_, i) => payment(`INV-${i}`, i + 1));

describe("createMany: every input gets an outcome, whatever happens to the answer", () => {
  it.each([
    ["a connection reset mid-body", { kind: "cut", afterBytes: 40 } as const],
    ["truncated JSON", { kind: "replaceBytes", replace: (b: Buffer) => b.subarray(0, b.length / 2) } as const],
    ["a non-JSON 200", { kind: "replaceBytes", replace: () => Buffer.from("<html>OK</html>") } as const],
  ])("marks entries unknown after %s, and never throws a raw error", async (_, fault) => {
    suite.proxy.inject({ when: batchCall, fault, times: 1 });
    const outcomes = await client.createMany(inputs(3));
    expect(outcomes.map((o) => o.outcome)).toEqual(["unknown", "unknown", "unknown"]);
    for (const o of outcomes) if (o.outcome === "unknown") expect(o.error).toBeInstanceOf(PayspecError);
  });

  it("marks entries the answer left out unknown, not failed", async () => {
    suite.proxy.inject({
      when: batchCall,
      fault: { kind: "rewrite", rewrite: (body) => ({ ...body, results: body.results.slice(0, 1) }) },
      times: 1,
    });
    const outcomes = await client.createMany(inputs(3));
    expect(outcomes.map((o) => o.outcome)).toEqual(["created", "unknown", "unknown"]);
  });

  it("reconciles unknown entries by reference: created when the server has them, missing when not", async () => {
    // The first batch reaches the server and its answer is lost; the second never reaches it.
    suite.proxy.inject({ when: batchCall, fault: { kind: "cut", afterBytes: 10 }, times: 1 });
    const sent = inputs(3);
    const first = await client.createMany(sent);
    suite.proxy.inject({ when: batchCall, fault: { kind: "respond", status: 502, body: "bad gateway" }, times: 1 });
    const neverArrived = [payment("INV-X", 77), { ...payment("ignored", 5), reference: undefined }];
    const second = await client.createMany(neverArrived);
    expect([...first, ...second].every((o) => o.outcome === "unknown")).toBe(true);

    const settled = await client.reconcile(sent, first);
    expect(settled.map((o) => o.outcome)).toEqual(["created", "created", "created"]);
    const amounts = settled.map((o) => (o.outcome === "created" ? o.payment.amount : 0));
    expect(amounts).toEqual([1, 2, 3]);
    const lost = await client.reconcile(neverArrived, second);
    expect(lost[0]).toMatchObject({ outcome: "missing", input: { reference: "INV-X" } });
    expect(lost[1]).toMatchObject({ outcome: "unknown", reason: "no_reference" });
  });
});

describe("pagination never loops", () => {
  it("stops with a ProtocolError when a cursor repeats", async () => {
    await client.createMany(inputs(5));
    let firstCursor: string | undefined;
    suite.proxy.inject({
      when: (r) => r.method === "GET" && r.url.startsWith("/v1/payments?"),
      fault: {
        kind: "rewrite",
        rewrite: (page) => {
          firstCursor ??= page.pagination.next_cursor;
          return { ...page, pagination: { ...page.pagination, next_cursor: firstCursor } };
        },
      },
    });
    const walk = async () => {
      for await (const _ of client.payments({ limit: 2 })) {
        // reading is enough
      }
    };
    const error = await walk().catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain("next_cursor");
  });

  it("stops with a ProtocolError on has_more without next_cursor", async () => {
    await client.createMany(inputs(3));
    suite.proxy.inject({
      when: (r) => r.method === "GET" && r.url.startsWith("/v1/payments?"),
      fault: {
        kind: "rewrite",
        rewrite: (page) => ({ ...page, pagination: { total: 3, limit: 1, has_more: true } }),
      },
    });
    const error = await collectPages();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain("has_more");
  });
});

async function collectPages() {
  try {
    for await (const _ of client.pages({ limit: 1 })) {
      // reading is enough
    }
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("a retried cancel", () => {
  it("resolves with the cancelled payment when its first attempt reached the server", async () => {
    const created = await client.createPayment(payment("CANCEL-1"));
    suite.proxy.inject({
      when: (r) => r.method === "DELETE",
      fault: { kind: "replace", replace: () => ({ status: 503, body: { code: "internal_error", message: "lost" } }) },
      times: 1,
    });
    const cancelled = await client.cancelPayment(created.id);
    expect(cancelled.status).toBe("cancelled");
    expect(suite.proxy.seen.filter((r) => r.method === "DELETE")).toHaveLength(2);
  });

  it("still refuses a payment that was already cancelled before this call", async () => {
    const created = await client.createPayment(payment("CANCEL-2"));
    await client.cancelPayment(created.id);
    const error = await client.cancelPayment(created.id).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error.code).toBe("payment_not_cancellable");
  });
});

describe("every failure is a typed PayspecError", () => {
  it("retries a read whose body the sandbox cuts off or stalls, as a lost connection, within the timeout", async () => {
    const created = await client.createPayment(payment("BODY-FAULTS"));
    const direct = createPaymentsClient({
      baseUrl: suite.target.url,
      apiKey: DEMO_API_KEYS[0],
      timeoutMs: 400,
      retry: { baseDelayMs: 1 },
    });
    for (const fault of ["truncated-body", "stall"] as const) {
      suite.target.faults.next("getPayment", fault);
      const started = Date.now();
      const read = await direct.getPayment(created.id);
      expect(read.id, fault).toBe(created.id);
      // A stalled body is given up after the attempt's 400 ms, then asked again.
      if (fault === "stall") expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    }
    // Every attempt stalled: a TimeoutError that says how long each waited.
    suite.target.faults.next("getPayment", "stall", { times: 3 });
    const error = await direct.getPayment(created.id).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain("no complete response within 400 ms");
  });

  it("times out a stalled body with TimeoutError", async () => {
    const created = await client.createPayment(payment("STALL"));
    const impatient = createPaymentsClient({
      baseUrl: suite.proxy.url,
      apiKey: DEMO_API_KEYS[0],
      timeoutMs: 300,
      retry: false,
    });
    suite.proxy.inject({
      when: (r) => r.method === "GET",
      fault: { kind: "cut", afterBytes: 5, stall: true },
      times: 1,
    });
    await expect(impatient.getPayment(created.id)).rejects.toBeInstanceOf(TimeoutError);
  });

  it("turns corrupt JSON into a ProtocolError and a reset into a NetworkError, also on the raw client", async () => {
    suite.proxy.inject({
      when: (r) => r.method === "GET",
      fault: { kind: "replaceBytes", replace: () => Buffer.from('{"broken":') },
      times: 1,
    });
    await expect(client.listAccounts()).rejects.toBeInstanceOf(ProtocolError);
    suite.proxy.inject({ when: (r) => r.method === "GET", fault: { kind: "cut", afterBytes: 3 }, times: 3 });
    const error = await client.raw.GET("/v1/accounts").catch((e) => e);
    expect(error).toBeInstanceOf(PayspecError);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it("types ApiError.code as the spec's codes and carries the request id", async () => {
    const error = await client.getPayment("pay_doesnotexist").catch((e) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    if (!(error instanceof PaymentsApiError)) return;
    const code: "not_found" | "invalid_request" | undefined =
      error.code === "not_found" || error.code === "invalid_request" ? error.code : undefined;
    expect(code).toBe("not_found");
    expect(error.requestId).toMatch(/^req_/);
    expect(error.message).toContain(error.requestId as string);
  });
});

describe("createPayment after a lost answer: looked up by its reference, never paid twice", () => {
  const creates = (r: { method: string; url: string }) => r.method === "POST" && r.url === "/v1/payments";
  const stored = async (reference: string) => (await client.paymentsByReference(reference)).length;

  it("returns the stored payment when the answer was lost after the server stored it", async () => {
    // The sandbox stores it, then resets the connection (straight to it: a proxy would answer 502):
    // the client sees NetworkError sent=true.
    const direct = createPaymentsClient({
      baseUrl: suite.target.url,
      apiKey: DEMO_API_KEYS[0],
      retry: { baseDelayMs: 1 },
    });
    suite.target.faults.next("createPayment", "reset-after-commit");
    const lost = await direct.createPayment(payment("LOST-1", 4242)).catch((e) => e);
    expect(lost, String(lost)).toBeInstanceOf(NetworkError);
    expect((lost as NetworkError).sent).toBe(true);
    expect(await stored("LOST-1")).toBe(1);

    suite.target.faults.next("createPayment", "reset-after-commit");
    const recovered = await direct.createPayment(payment("LOST-2", 4242), { recoverLostAnswer: true });
    expect(recovered).toMatchObject({ reference: "LOST-2", amount: 4242, status: "pending" });
    expect(await stored("LOST-2")).toBe(1);
  });

  it("sends it again once when the lost request never stored it, and once only", async () => {
    // A 503 that did nothing (the sandbox's database away, say): looked up, not there, sent again.
    suite.proxy.inject({
      when: creates,
      fault: {
        kind: "respond",
        status: 503,
        body: { code: "service_unavailable", message: "away" },
        headers: { "retry-after": "1" },
      },
      times: 1,
    });
    const created = await client.createPayment(payment("LOST-3", 77), { recoverLostAnswer: true });
    expect(created.reference).toBe("LOST-3");
    expect(await stored("LOST-3")).toBe(1);
    const seen = suite.proxy.seen.filter(creates).length;
    expect(seen).toBe(2);
  });

  it("needs a reference to recover, said before anything is sent", async () => {
    const { reference: _none, ...anonymous } = payment("x");
    await expect(client.createPayment(anonymous, { recoverLostAnswer: true })).rejects.toThrow(
      "needs the payment's reference",
    );
    expect(suite.proxy.seen.filter(creates)).toEqual([]);
  });

  it("refuses to guess between two stored payments with one reference and one request", async () => {
    await client.createPayment(payment("TWIN", 5));
    await client.createPayment(payment("TWIN", 5));
    suite.proxy.inject({ when: creates, fault: { kind: "cut", afterBytes: 0 }, times: 1 });
    const error = await client.createPayment(payment("TWIN", 5), { recoverLostAnswer: true }).catch((e) => e);
    expect(error.name).toBe("AmbiguousReferenceError");
    expect(error.message).toContain("3 payments carry reference TWIN");
  });
});

describe("per-call options and the answer's request id", () => {
  it("sends a call's own headers (never its timeout header), and every answer carries lastResponse", async () => {
    const payment = await client.getPayment(
      (await client.createPayment({ amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to }))
        .id,
      { headers: { "x-trace-id": "trace-42" } },
    );
    const sent = suite.proxy.seen.at(-1);
    expect(sent?.headers["x-trace-id"]).toBe("trace-42");
    expect(Object.keys(sent?.headers ?? {})).not.toContain("x-payspec-call-timeout-ms");
    expect(payment.lastResponse.requestId).toMatch(/^req_/);
    expect(payment.lastResponse.status).toBe(200);
    // Not part of the payment itself: JSON and spreads leave it out.
    expect(JSON.stringify(payment)).not.toContain("lastResponse");
    const accounts = await client.listAccounts();
    expect(accounts.lastResponse.requestId).toMatch(/^req_/);
    await expect(client.getPayment("pay_x", { headers: { Authorization: "Bearer other" } })).rejects.toThrow(
      /Authorization/,
    );
  });

  it("times one call by its own timeoutMs and aborts one by its signal", async () => {
    suite.target.faults.next("listAccounts", "latency-before", { latencyMs: 1_500, times: 3 });
    const direct = createPaymentsClient({ baseUrl: suite.target.url, apiKey: DEMO_API_KEYS[0], retry: false });
    const timedOut = await direct.listAccounts({ timeoutMs: 200 }).catch((e) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut.message).toContain("within 200 ms");
    const controller = new AbortController();
    const aborted = direct.listAccounts({ signal: controller.signal }).catch((e) => e);
    controller.abort();
    expect(await aborted).toBeInstanceOf(PayspecError);
    suite.target.faults.clear();
  });
});
