import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET } from "../src/index.js";
import { type Harness, harness, KEY } from "./support/harness.js";
import { rawHttp } from "./support/raw-http.js";

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await harness();
  token = await h.login();
});
afterAll(() => h.close());
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const request = (line: string, headers: string[] = [], body = "") =>
  rawHttp(h.url, [line, "Host: 127.0.0.1", "Connection: close", ...headers, "", body].join("\r\n"));

/** The payments API's `{code, message}` with a string code, or the gateway's with an integer code. */
function expectShape(body: any, api: "payments" | "gateway") {
  expect(typeof body.message).toBe("string");
  expect(typeof body.code).toBe(api === "payments" ? "string" : "number");
  expect(Object.keys(body).every((k) => ["code", "message", "param"].includes(k))).toBe(true);
}

describe("Node- and Fastify-level refusals answer in the called API's error shape", () => {
  it.each([
    ["/v1/payments/%E0%A4%A", "payments"],
    ["/api/v1/payments/reference/%ZZ", "gateway"],
  ] as const)("bad percent-encoding in %s is 400", async (path, api) => {
    const reply = await request(`GET ${path} HTTP/1.1`, [`Authorization: Bearer ${api === "payments" ? KEY : token}`]);
    expect(reply.status).toBe(400);
    expectShape(reply.body, api);
    expect(reply.text).not.toContain("%ZZ");
  });

  it("answers 404 for an over-long id that still matches the pay_ pattern, and for one longer than any route", async () => {
    const long = await h.call("GET", `/v1/payments/pay_${"a".repeat(300)}`, { key: KEY });
    expect(long.status).toBe(404);
    expect(long.body.code).toBe("not_found");
    const huger = await request(`GET /v1/payments/pay_${"b".repeat(5000)} HTTP/1.1`, [`Authorization: Bearer ${KEY}`]);
    expect(huger.status).toBe(404);
    expectShape(huger.body, "payments");
  });

  it.each([
    ["/v1/accounts", "payments"],
    ["/api/v1/payments/card", "gateway"],
  ] as const)("answers 431 for headers that are too large on %s", async (path, api) => {
    const reply = await request(`GET ${path} HTTP/1.1`, [`X-Padding: ${"p".repeat(20_000)}`]);
    expect(reply.status).toBe(431);
    expectShape(reply.body, api);
  });

  it.each([
    ["/v1/payments", "payments"],
    ["/api/v1/payments/card", "gateway"],
  ] as const)("answers 400 for broken chunked framing on %s", async (path, api) => {
    const reply = await request(
      `POST ${path} HTTP/1.1`,
      ["Transfer-Encoding: chunked", "Content-Type: application/json"],
      "ZZZ\r\n{}\r\n0\r\n\r\n",
    );
    expect(reply.status).toBe(400);
    expectShape(reply.body, api);
  });

  it.each([
    ["PUT", "/v1/payments/pay_abc", "payments", "DELETE, GET, HEAD"],
    ["PATCH", "/v1/payments", "payments", "GET, HEAD, POST"],
    ["GET", "/api/v1/payments/card", "gateway", "POST"],
    ["DELETE", "/auth/login", "gateway", "POST"],
  ] as const)("answers %s %s with 405 and Allow", async (method, path, api, allow) => {
    const reply = await h.call(method, path, { key: KEY });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe(allow);
    expectShape(reply.body, api);
  });

  it("sends an x-request-id on every answer, errors included", async () => {
    const ok = await h.call("GET", "/v1/accounts", { key: KEY });
    const denied = await h.call("GET", "/v1/accounts");
    const missing = await h.call("GET", "/nowhere");
    for (const reply of [ok, denied, missing]) expect(reply.headers.get("x-request-id")).toMatch(/^req_/);
    expect(ok.headers.get("x-request-id")).not.toBe(denied.headers.get("x-request-id"));
  });
});

describe("auth schemes are case-insensitive (RFC 7235)", () => {
  it("accepts bearer, BEARER and basic", async () => {
    expect((await h.call("GET", "/v1/accounts", { headers: { authorization: `bearer ${KEY}` } })).status).toBe(200);
    const basic = Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64");
    const login = await h.call("POST", "/auth/login", { headers: { authorization: `basic ${basic}` } });
    expect(login.status).toBe(200);
    const report = await h.call("GET", "/api/v1/general/reports/sales/daily-transactions?date=2026-11-21", {
      headers: { authorization: `BEARER ${login.body.accessToken}` },
    });
    expect(report.status).toBe(200);
  });
});
