import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../src/index.js";
import { cardPayment, type Harness, harness, KEY } from "./support/harness.js";
import { logEntries, loggedText } from "./support/log-lines.js";
import { storeOptions } from "./support/test-stores.js";

let h: Harness;
let token: string;
const logLines: string[] = [];

beforeAll(async () => {
  h = await harness({ logRequests: true, log: (line) => logLines.push(line) });
  token = await h.login();
});
afterAll(() => h.close());
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

describe("bad HTTP gets a clear 4xx in the API's own shape", () => {
  it("answers malformed JSON at once with 400 in each API's shape", async () => {
    const payments = await h.call("POST", "/v1/payments", {
      key: KEY,
      raw: '{"amount": 1,',
      headers: { "content-type": "application/json" },
    });
    expect(payments.status).toBe(400);
    expect(payments.body).toMatchObject({ code: "invalid_request" });
    expect(payments.body.message).toContain("not valid JSON");
    const gateway = await h.call("POST", "/api/v1/payments/card", {
      token,
      raw: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(gateway.body).toMatchObject({ code: 6001 });
    expect(gateway.body.message).toContain("not valid JSON");
  });

  it("refuses a wrong content type with 400 naming Content-Type", async () => {
    const reply = await h.call("POST", "/v1/payments", {
      key: KEY,
      raw: "amount=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.param).toBe("Content-Type");
    const gateway = await h.call("POST", "/api/v1/payments/card", {
      token,
      raw: "<xml/>",
      headers: { "content-type": "text/xml" },
    });
    expect(gateway.body.code).toBe(6001);
  });

  it("refuses an oversized body with 400", async () => {
    const huge = JSON.stringify({ payments: [{ description: "x".repeat(2 * 1024 * 1024) }] });
    const reply = await h.call("POST", "/v1/payments/batch", {
      key: KEY,
      raw: huge,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("larger than");
  });

  it("answers a missing or non-object body with 400, not 500", async () => {
    for (const raw of ["", "null", "[]", "42", '"text"']) {
      const reply = await h.call("POST", "/v1/payments", {
        key: KEY,
        raw,
        headers: { "content-type": "application/json" },
      });
      expect(reply.status, raw).toBe(400);
      const gateway = await h.call("POST", "/api/v1/payments/card", {
        token,
        raw,
        headers: { "content-type": "application/json" },
      });
      expect(gateway.status, raw).toBe(400);
      expect(gateway.body.code).toBe(6001);
    }
  });

  it("answers unknown routes 404 in the shape of the API the path belongs to", async () => {
    const payments = await h.call("GET", "/v2/nothing", { key: KEY });
    expect(payments.status).toBe(404);
    expect(payments.body.code).toBe("not_found");
    const gateway = await h.call("GET", "/api/v1/nothing", { token });
    expect(gateway.status).toBe(404);
    expect(gateway.body.code).toBe(4004);
  });
});

describe("card data never reaches a log", () => {
  it("logs one JSON line per request with its id, method, path, status and ms, and no card number or CVC", async () => {
    logLines.length = 0;
    const body = cardPayment({}, { cardNumber: "4543590000000006", cvc: "987" });
    const paid = await h.call("POST", "/api/v1/payments/card", { token, json: body });
    await h.call("POST", "/api/v1/payments/card", {
      token,
      json: cardPayment({}, { cardNumber: "45435900000000060000" }),
    });
    await h.call("GET", "/api/v1/payments/reference/4543590000000006", { token });
    const [first] = logEntries(logLines);
    expect(first).toMatchObject({
      msg: "request completed",
      method: "POST",
      path: "/api/v1/payments/card",
      status: 200,
    });
    expect(first?.responseTimeMs).toEqual(expect.any(Number));
    // The id the answer carried, so a line can be found from a client's error.
    expect(first?.reqId).toBe(paid.headers.get("x-request-id"));
    const all = loggedText(logLines);
    expect(all).not.toContain("4543590000000006");
    expect(all).not.toContain("987");
    expect(all).toContain("454359******0006");
  });
});

describe("the control API", () => {
  it("is absent when PAYSPEC_SANDBOX_CONTROL=off", async () => {
    const closed = await startSandbox({ ...(await storeOptions()), control: false });
    try {
      const reply = await fetch(`${closed.url}/_sandbox/reset`, { method: "POST" });
      expect(reply.status).toBe(404);
    } finally {
      await closed.close();
    }
  });

  it("validates its own input", async () => {
    const reply = await h.control("/clock/advance", { seconds: -5 });
    expect(reply.status).toBe(400);
    const status = await h.control("/payments/pay_x/status", { status: "teleported" });
    expect(status.status).toBe(400);
  });
});
