import { type ClientView, clientView } from "@payspec/fault-proxy";
import { FAULT_NAMES } from "@payspec/server-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

let mock: RunningMock;
const logLines: string[] = [];

beforeAll(async () => {
  mock = await startMock({ logRequests: true, log: (line) => logLines.push(line) });
});
afterAll(() => mock.close());

const accounts = (prefer?: string, timeoutMs?: number): Promise<ClientView> =>
  clientView(`${mock.url}/v1/accounts`, {
    method: "GET",
    headers: { authorization: "Bearer sk_any", ...(prefer === undefined ? {} : { prefer }) },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

const batch = (prefer: string) =>
  clientView(`${mock.url}/v1/payments/batch`, {
    method: "POST",
    headers: { authorization: "Bearer sk_any", prefer },
    json: {
      payments: Array.from({ length: 5 }, (_, i) => ({
        amount: 100 + i,
        currency: "TRY",
        method: "eft",
        from_account: "acc_a",
        to_account: "acc_b",
      })),
    },
  });

describe("Prefer: fault=… strikes the one request that asks", () => {
  it("answers as usual without a fault, and the same answer when asked again", async () => {
    const plain = await accounts();
    expect([plain.outcome, plain.status]).toEqual(["answer", 200]);
    expect(JSON.parse(plain.body)).toBeInstanceOf(Array);
  });

  it("error-500, error-503 and rate-limit: the payments API's error shape, Retry-After where it applies", async () => {
    const failed = await accounts("fault=error-500");
    expect([failed.status, JSON.parse(failed.body).code]).toEqual([500, "internal_error"]);
    const unavailable = await accounts("fault=error-503, retry-after=7");
    expect([unavailable.status, unavailable.headers?.["retry-after"]]).toEqual([503, "7"]);
    expect(JSON.parse(unavailable.body).code).toBe("service_unavailable");
    const limited = await accounts("fault=rate-limit");
    expect([limited.status, limited.headers?.["retry-after"]]).toEqual([429, "1"]);
    expect(JSON.parse(limited.body)).toMatchObject({
      code: "internal_error",
      message: expect.stringContaining("Retry after 1 s"),
    });
  });

  it("the gateway's faults come in the gateway's {code, message} shape", async () => {
    const login = await clientView(`${mock.url}/auth/login`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("key:secret").toString("base64")}`, prefer: "fault=error-503" },
    });
    expect(login.status).toBe(503);
    const body = JSON.parse(login.body);
    expect(Object.keys(body).sort()).toEqual(["code", "message"]);
    expect(body.code).toBe(5003);
  });

  it("latency-before and latency-after: the answer, late by what was asked", async () => {
    for (const fault of ["latency-before", "latency-after"]) {
      const late = await accounts(`fault=${fault}, latency=300`);
      expect([late.outcome, late.status]).toEqual(["answer", 200]);
      expect(late.ms).toBeGreaterThanOrEqual(290);
    }
    const ranged = await accounts("fault=latency-before, latency=200-250");
    expect(ranged.ms).toBeGreaterThanOrEqual(190);
    const timedOut = await accounts("fault=latency-after, latency=2000", 300);
    expect(timedOut.outcome).toBe("timeout");
  });

  it("reset-before and reset-after-commit: the connection reset, no answer", async () => {
    for (const fault of ["reset-before", "reset-after-commit"]) {
      const seen = await accounts(`fault=${fault}`);
      expect([seen.outcome, seen.status]).toEqual(["reset", undefined]);
    }
  });

  it("truncated-body and stall: part of the body, then the end or nothing", async () => {
    const whole = await accounts();
    const truncated = await accounts("fault=truncated-body");
    expect([truncated.outcome, truncated.status]).toEqual(["cut", 200]);
    expect(Number(truncated.headers?.["content-length"])).toBe(Buffer.byteLength(whole.body));
    expect(whole.body.startsWith(truncated.body)).toBe(true);
    expect(truncated.body.length).toBeLessThan(whole.body.length);

    const stalled = await accounts("fault=stall", 400);
    expect([stalled.outcome, stalled.status]).toEqual(["timeout", 200]);
    expect(whole.body.startsWith(stalled.body) && stalled.body.length < whole.body.length).toBe(true);
  });

  it("wrong-content-type: the right body labelled text/html", async () => {
    const whole = await accounts();
    const mislabelled = await accounts("fault=wrong-content-type");
    expect(mislabelled.headers?.["content-type"]).toMatch(/^text\/html/);
    expect(mislabelled.body).toBe(whole.body);
  });

  it("batch-partial: the batch answer stops after the results asked for", async () => {
    const whole = await batch("");
    expect(JSON.parse(whole.body).results).toHaveLength(5);
    const cut = await batch("fault=batch-partial, results=2");
    expect([cut.outcome, cut.status]).toEqual(["cut", 200]);
    expect(whole.body.startsWith(cut.body.slice(0, cut.body.indexOf('"results"')))).toBe(true);
    // Two whole results sent, the third never begun.
    const sent = cut.body.slice(cut.body.indexOf("[") + 1);
    expect(sent.split('"index"').length - 1).toBe(2);
  });

  it("the rest of the Prefer header still reaches Prism", async () => {
    const missing = await clientView(`${mock.url}/v1/payments/pay_x`, {
      method: "GET",
      headers: { authorization: "Bearer sk_any", prefer: "code=404, fault=latency-before, latency=50" },
    });
    expect(missing.status).toBe(404);
  });

  it("refuses a fault it cannot apply with a 400 naming the preference, never quoting it", async () => {
    const unknown = await accounts("fault=meteor-strike");
    expect(unknown.status).toBe(400);
    const body = JSON.parse(unknown.body);
    expect(body).toMatchObject({ code: "invalid_request", param: "Prefer" });
    expect(body.message).toContain(FAULT_NAMES.join(", "));
    expect(body.message).not.toContain("meteor");
    for (const prefer of ["fault=latency-before, latency=99999999", "fault=rate-limit, retry-after=-1", "latency=5"]) {
      const refused = await accounts(prefer);
      expect([refused.status, JSON.parse(refused.body).param], prefer).toEqual([400, "Prefer"]);
    }
    const notBatch = await accounts("fault=batch-partial");
    expect(JSON.parse(notBatch.body).message).toContain("POST /v1/payments/batch only");
  });

  it("a bad credential is still a 401, before any fault", async () => {
    const anonymous = await clientView(`${mock.url}/v1/accounts`, {
      method: "GET",
      headers: { prefer: "fault=error-500" },
    });
    expect(anonymous.status).toBe(401);
  });
});
