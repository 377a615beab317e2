import { clientView } from "@payspec/fault-proxy";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectBooksBalanced } from "../../../test/support/books.js";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY, OTHER_KEY } from "../../../test/support/harness.js";
import { FAULT_NAMES, type FaultName } from "../../index.js";

let h: Harness;
/** Node's warnings while the suite runs: a fault must not pile listeners onto a response. */
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
let from: string;
let to: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await h.close();
});
beforeEach(async () => {
  await h.control("/reset");
  await h.control("/reset", {}, OTHER_KEY);
  [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
});

/** What a client sees of one request to the sandbox (an answer, a reset, a cut body, or nothing in time). */
const send = (method: string, path: string, json?: unknown, { key = KEY as string, timeoutMs = 3_000 } = {}) =>
  clientView(`${h.url}${path}`, { method, json, timeoutMs, headers: { authorization: `Bearer ${key}` } });

const payment = (reference: string) => ({
  amount: 1234,
  currency: "TRY",
  method: "eft",
  from_account: from,
  to_account: to,
  reference,
});
/** How many payments the workspace holds with this reference (the listing has no reference filter). */
const stored = async (reference: string, key = KEY) =>
  ((await h.call("GET", "/v1/payments?limit=10000", { key })).body.data as { reference?: string }[]).filter(
    (p) => p.reference === reference,
  ).length;
const declare = (body: Record<string, unknown>, credential: string = KEY) => h.control("/faults", body, credential);
const logged = async () => {
  const entries = await h.sandbox.app.inject({
    method: "GET",
    url: "/_sandbox/faults",
    headers: { authorization: `Bearer ${KEY}` },
  });
  return entries.json() as { faults: { fault: FaultName; struck: number; active: boolean }[] };
};

describe("declaring faults through the control API", () => {
  it("declares, lists with strike counts, and clears; never anonymously, never across workspaces", async () => {
    const made = await declare({ operation: "createPayment", fault: "error-500", next: 2 });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      operations: ["POST /v1/payments"],
      fault: "error-500",
      mode: { next: 2 },
      struck: 0,
      active: true,
    });
    // Another workspace's requests are not struck.
    const [otherFrom, otherTo] = (await h.accounts(OTHER_KEY)).filter((a) => a.currency === "TRY").map((a) => a.id);
    const other = { ...payment("OTHER-1"), from_account: otherFrom, to_account: otherTo };
    expect((await send("POST", "/v1/payments", other, { key: OTHER_KEY })).status).toBe(201);
    expect((await send("POST", "/v1/payments", payment("F-1"))).status).toBe(500);
    expect((await send("POST", "/v1/payments", payment("F-2"))).status).toBe(500);
    expect((await send("POST", "/v1/payments", payment("F-3"))).status).toBe(201);
    expect((await logged()).faults).toEqual([
      expect.objectContaining({ fault: "error-500", struck: 2, active: false }),
    ]);
    const anonymous = await h.call("POST", "/_sandbox/faults", {
      json: { operation: "createPayment", fault: "stall" },
    });
    expect(anonymous.status).toBe(401);
    const cleared = await h.call("DELETE", "/_sandbox/faults", { key: KEY });
    expect(cleared.body).toEqual({ cleared: 1 });
    expect((await logged()).faults).toEqual([]);
  });

  it("refuses what it cannot use, naming the field and the choices, never quoting the text", async () => {
    const unknownFault = await declare({ operation: "createPayment", fault: "explode-4111111111111111" });
    expect(unknownFault.status).toBe(400);
    expect(unknownFault.body.param).toBe("fault");
    expect(unknownFault.body.message).toContain(FAULT_NAMES.join(", "));
    expect(JSON.stringify(unknownFault.body)).not.toContain("4111111111111111");
    const unknownOperation = await declare({ operation: "GET /v1/nowhere", fault: "stall" });
    expect(unknownOperation.body).toMatchObject({
      param: "operation",
      message: expect.stringContaining("createPayment (POST /v1/payments)"),
    });
    expect((await declare({ operation: "createPayment", fault: "batch-partial" })).body.param).toBe("operation");
    expect((await declare({ operation: "createPayment", fault: "stall", next: 0 })).body.param).toBe("next");
    expect((await declare({ operation: "createPayment", fault: "stall", probability: 2 })).body.param).toBe(
      "probability",
    );
    expect((await declare({ operation: "createPayment", fault: "latency-before", latencyMs: [5, 1] })).body.param).toBe(
      "latencyMs",
    );
    // An unknown field is named, as the payments API names one.
    const misspelt = await declare({ operation: "createPayment", fault: "error-503", nxt: 2 });
    expect([misspelt.status, misspelt.body.param]).toEqual([400, "nxt"]);
    expect(misspelt.body.message).toMatch(/^nxt: unknown field; the fields are operation, fault, next/);
    // A setting the fault has no use for is refused, not silently dropped.
    for (const [fault, field, value] of [
      ["error-500", "latencyMs", 200],
      ["error-500", "retryAfterSeconds", 2],
      ["stall", "results", 1],
      ["latency-before", "retryAfterSeconds", 1],
    ] as const) {
      const refused = await declare({ operation: "createPayment", fault, [field]: value });
      expect([refused.status, refused.body.param], `${fault} ${field}`).toEqual([400, field]);
      expect(refused.body.message, `${fault} ${field}`).toContain(`not to ${fault}`);
    }
    expect((await logged()).faults).toEqual([]);
  });

  it("strikes by operationId or method and path, and a seeded probability strikes the same requests each time", async () => {
    const pattern = async () => {
      await h.call("DELETE", "/_sandbox/faults", { key: KEY });
      await declare({ operation: "GET /v1/accounts", fault: "error-503", probability: 0.5, seed: 7, max: 4 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await send("GET", "/v1/accounts")).status as number);
      return statuses;
    };
    const first = await pattern();
    expect(first.filter((s) => s === 503)).toHaveLength(4);
    expect(await pattern()).toEqual(first);
  });
});

describe("each fault: what the client sees, and what the sandbox stored", () => {
  it("latency-before waits, then handles the request", async () => {
    await declare({ operation: "createPayment", fault: "latency-before", latencyMs: 300 });
    const seen = await send("POST", "/v1/payments", payment("LAT-B"));
    expect(seen).toMatchObject({ outcome: "answer", status: 201 });
    expect(seen.ms).toBeGreaterThanOrEqual(290);
    expect(await stored("LAT-B")).toBe(1);
  });

  it("latency-after: the payment exists before the answer, which a short client timeout never sees", async () => {
    await declare({ operation: "createPayment", fault: "latency-after", latencyMs: 1_500 });
    const seen = await send("POST", "/v1/payments", payment("LAT-A"), { timeoutMs: 300 });
    expect(seen.outcome).toBe("timeout");
    expect(await stored("LAT-A")).toBe(1);
  });

  it("error-500, error-503 and rate-limit answer in the API's shape, with Retry-After, and store nothing", async () => {
    for (const [fault, status] of [
      ["error-500", 500],
      ["error-503", 503],
      ["rate-limit", 429],
    ] as const) {
      await declare({ operation: "createPayment", fault, ...(status === 500 ? {} : { retryAfterSeconds: 2 }) });
      const seen = await send("POST", "/v1/payments", payment(`ERR-${status}`));
      expect(seen.status).toBe(status);
      expect(JSON.parse(seen.body)).toMatchObject({
        code: status === 503 ? "service_unavailable" : "internal_error",
        message: expect.stringContaining(fault),
      });
      expect(seen.headers?.["retry-after"]).toBe(status === 500 ? undefined : "2");
      expect(await stored(`ERR-${status}`)).toBe(0);
    }
  });

  it("reset-before: the connection is reset and nothing is stored", async () => {
    await declare({ operation: "createPayment", fault: "reset-before" });
    expect((await send("POST", "/v1/payments", payment("RST-B"))).outcome).toBe("reset");
    expect(await stored("RST-B")).toBe(0);
  });

  it("reset-after-commit: the connection is reset after the payment is stored, and the log says so", async () => {
    await declare({ operation: "createPayment", fault: "reset-after-commit" });
    expect((await send("POST", "/v1/payments", payment("RST-A"))).outcome).toBe("reset");
    expect(await stored("RST-A")).toBe(1);
    const page = await h.sandbox.app.inject({
      method: "GET",
      url: "/_sandbox/faults",
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(page.json().faults[0]).toMatchObject({ fault: "reset-after-commit", struck: 1 });
    // Logged once, as the client saw it (no status: the connection was reset), with the fault's name:
    // the reset's early close makes Fastify answer again, which must neither log a second entry nor
    // strike again.
    const dashboard = new DashboardHttp(h.url);
    await dashboard.signIn(KEY);
    const log = (await dashboard.get("/requests")).text;
    expect(log.match(/injected: reset-after-commit/g)).toHaveLength(1);
    expect(log).toMatch(
      /none \(connection reset\)<\/td>\s*<td class="money">[\d.]+ ms<\/td><td><span class="verdict">injected: reset-after-commit/,
    );
    expect(warnings).toEqual([]);
  });

  it("stall: status and headers arrive, the body never completes, the payment is stored", async () => {
    await declare({ operation: "createPayment", fault: "stall" });
    const seen = await send("POST", "/v1/payments", payment("STALL"), { timeoutMs: 500 });
    expect(seen).toMatchObject({ outcome: "timeout", status: 201 });
    expect(() => JSON.parse(seen.body)).toThrow();
    expect(await stored("STALL")).toBe(1);
  });

  it("truncated-body: half the promised body, then the connection closes; the payment is stored", async () => {
    await declare({ operation: "createPayment", fault: "truncated-body" });
    const seen = await send("POST", "/v1/payments", payment("CUT"));
    expect(seen).toMatchObject({ outcome: "cut", status: 201 });
    expect(Buffer.byteLength(seen.body)).toBeLessThan(Number(seen.headers?.["content-length"]));
    expect(await stored("CUT")).toBe(1);
  });

  it("wrong-content-type: the right body labelled text/html", async () => {
    await declare({ operation: "createPayment", fault: "wrong-content-type" });
    const seen = await send("POST", "/v1/payments", payment("CT"));
    expect(seen.headers?.["content-type"]).toMatch(/^text\/html/);
    expect(JSON.parse(seen.body)).toMatchObject({ reference: "CT", status: "pending" });
  });

  it("batch-partial: the answer stops after K results; the whole batch is stored", async () => {
    await declare({ operation: "createPaymentBatch", fault: "batch-partial", results: 2 });
    const entries = [1, 2, 3, 4, 5].map((n) => payment(`BATCH-${n}`));
    const seen = await send("POST", "/v1/payments/batch", { payments: entries });
    expect(seen).toMatchObject({ outcome: "cut", status: 200 });
    expect(seen.body.match(/"outcome"/g)).toHaveLength(2);
    for (let n = 1; n <= 5; n++) expect(await stored(`BATCH-${n}`)).toBe(1);
  });

  it("strikes the gateway in its own scope and shape, never a workspace's requests", async () => {
    const token = await h.login();
    const made = await declare({ operation: "getPaymentByReference", fault: "error-503" }, token);
    expect(made.status).toBe(201);
    const seen = await h.call("GET", "/api/v1/payments/reference/00000000-0000-4000-8000-000000000000", { token });
    expect(seen.status).toBe(503);
    expect(seen.body).toMatchObject({ code: 5003 });
    h.problems.splice(0);
    expect((await send("GET", "/v1/accounts")).status).toBe(200);
  });

  it("strikes the gateway's login too, after the credentials are checked; the next login works", async () => {
    const token = await h.login();
    expect((await declare({ operation: "login", fault: "rate-limit", retryAfterSeconds: 2 }, token)).status).toBe(201);
    const basic = `Basic ${Buffer.from("wrong:credentials").toString("base64")}`;
    // Wrong credentials are refused as ever: a fault never hides a 401, nor counts against one.
    expect((await h.call("POST", "/auth/login", { headers: { authorization: basic } })).status).toBe(401);
    const demo = `Basic ${Buffer.from("gw_demo_key:gw_demo_secret").toString("base64")}`;
    const limited = await h.call("POST", "/auth/login", { headers: { authorization: demo } });
    expect([limited.status, limited.headers.get("retry-after"), limited.body.code]).toEqual([429, "2", 5000]);
    expect(await h.login()).toMatch(/\S{20,}/);
    h.problems.splice(0);
  });
});

describe("money under random faults", () => {
  it("balances: no fault loses or doubles money, whatever strikes", async () => {
    const kinds: FaultName[] = [
      "error-503",
      "reset-before",
      "reset-after-commit",
      "truncated-body",
      "wrong-content-type",
      "latency-after",
    ];
    for (const [i, fault] of kinds.entries()) {
      await declare({
        operation: ["createPayment", "cancelPayment", "listAccounts"],
        fault,
        probability: 0.15,
        seed: i + 1,
        max: 50,
        latencyMs: 5,
      });
    }
    const references: string[] = [];
    for (let i = 0; i < 60; i++) {
      const reference = `MONEY-${i}`;
      references.push(reference);
      await send("POST", "/v1/payments", payment(reference));
      if (i % 4 === 3) await h.control("/clock/advance", { seconds: 31 });
    }
    await h.call("DELETE", "/_sandbox/faults", { key: KEY });
    for (const reference of references) expect(await stored(reference)).toBeLessThanOrEqual(1);
    await expectBooksBalanced(h);
    h.problems.splice(0);
  });
});

describe("the request log tells injected faults from spec violations", () => {
  /** The log's entries as the dashboard shows them, newest first: one row's cells each. */
  const rows = async () => {
    const dashboard = new DashboardHttp(h.url);
    await dashboard.signIn(KEY);
    const page = (await dashboard.get("/requests")).text;
    const body = page.slice(page.indexOf('id="request-log-rows"'));
    return body
      .split("<tr>")
      .slice(1)
      .map((row) => {
        const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((m) => m[1] as string);
        return {
          method: cells[1],
          href: /href="([^"]+)"/.exec(cells[2] ?? "")?.[1] ?? "",
          status: cells[3],
          ms: Number.parseFloat(cells[4] ?? ""),
          verdict: cells[5],
          dashboard,
        };
      });
  };

  it("shows what the client saw: the injected status and latency, no status after a reset, never a violation", async () => {
    await declare({ operation: "listAccounts", fault: "error-503" });
    await send("GET", "/v1/accounts");
    await declare({ operation: "listAccounts", fault: "rate-limit" });
    await send("GET", "/v1/accounts");
    await declare({ operation: "createPayment", fault: "reset-before" });
    expect((await send("POST", "/v1/payments", payment("LOG-RST"))).outcome).toBe("reset");
    await declare({ operation: "getPayment", fault: "latency-after", latencyMs: 400 });
    await send("GET", "/v1/payments/pay_unknown");
    const [latency, reset, limited, unavailable] = await rows();
    expect(unavailable).toMatchObject({ status: "503", verdict: expect.stringContaining("injected: error-503") });
    expect(limited).toMatchObject({ status: "429", verdict: expect.stringContaining("injected: rate-limit") });
    expect(reset).toMatchObject({ method: "POST", status: "none (connection reset)" });
    expect(latency?.ms).toBeGreaterThanOrEqual(400);
    for (const row of [latency, reset, limited, unavailable]) expect(row?.verdict).not.toContain("violation");

    // The struck create had a body, which the fault answered before reading: the entry says so.
    if (!reset) throw new Error("the reset request is not in the log");
    const detail = (await reset.dashboard.get(reset.href.replace("/_sandbox/dashboard", ""))).text;
    expect(detail).toContain("sent, not read: the injected fault answered before the body was read");
    expect(detail).toContain("the client saw the connection reset (ECONNRESET), no answer");
  });
});
