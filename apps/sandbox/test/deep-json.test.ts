import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DashboardHttp } from "./support/dashboard-http.js";
import { type Harness, harness, KEY } from "./support/harness.js";

/**
 * Bodies nested far deeper than any request needs used to blow the stack somewhere in the sandbox's
 * own path (body handling, card-number search, the request log, spec verdicts) and answer 500, in
 * Fastify's shape at times. Every JSON body is now refused at 32 levels, before anything reads it.
 */
let h: Harness;
const logLines: string[] = [];

beforeAll(async () => {
  h = await harness({ logRequests: true, log: (line) => logLines.push(line) });
});
afterAll(() => h.close());
afterEach(async () => {
  expect(h.problems.splice(0)).toEqual([]);
  await h.control("/reset");
});

const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
const inBatchEntry = (n: number) => `{"payments":[${objects(n)}]}`;
/** A nested value inside a field a create does carry, so the body looks like a payment at its top. */
const inDescription = (n: number) => `{"amount":100,"currency":"TRY","description":${arrays(n)}}`;

describe("deeply nested JSON", () => {
  it("is refused with 400 in the called API's shape, naming the limit, on every JSON route", async () => {
    const token = await h.login();
    const routes = [
      { path: "/v1/payments", bodies: [arrays, objects, inDescription], credential: { key: KEY } },
      { path: "/v1/payments/batch", bodies: [arrays, objects, inBatchEntry], credential: { key: KEY } },
      { path: "/api/v1/payments/card", bodies: [arrays, objects], credential: { token } },
      { path: "/_sandbox/faults", bodies: [arrays, objects], credential: { key: KEY } },
      { path: "/_sandbox/payments", bodies: [objects], credential: { key: KEY } },
    ];
    for (const { path, bodies, credential } of routes) {
      for (const body of bodies) {
        for (const depth of [33, 1_000, 10_000, 100_000]) {
          const what = `${path} ${body.name}(${depth})`;
          const reply = await h.call("POST", path, {
            ...credential,
            raw: body(depth),
            headers: { "content-type": "application/json" },
          });
          expect(reply.status, what).toBe(400);
          expect(reply.body.code, what).toBe(path.startsWith("/api/") ? 6001 : "invalid_request");
          expect(reply.body.message, what).toContain("more than 32 levels deep");
          expect(reply.body.message, what).toMatch(/line 1, column \d+/);
        }
      }
    }
    expect((await h.call("GET", "/v1/payments?limit=1", { key: KEY })).body.pagination.total).toBe(0);
    expect(logLines.join("\n")).not.toContain("Maximum call stack");
  });

  it("still reads a body at the limit, and brackets inside strings do not count", async () => {
    const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
    const atLimit = await h.call("POST", "/v1/payments", {
      key: KEY,
      raw: `{"amount":100,"currency":"TRY","method":"eft","from_account":"${from}","to_account":"${to}","x":${arrays(31)}}`,
      headers: { "content-type": "application/json" },
    });
    // 32 levels is read: the schema, not the nesting limit, refuses the unknown field.
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.param).toBe("x");
    const bracketsInText = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: {
        amount: 100,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
        description: "[".repeat(5_000),
      },
    });
    expect(bracketsInText.status).toBe(400);
    expect(bracketsInText.body.message).not.toContain("levels deep");
  });

  it("keeps the request log readable after a refused deep body", async () => {
    await h.call("POST", "/v1/payments", {
      key: KEY,
      raw: objects(50_000),
      headers: { "content-type": "application/json" },
    });
    const browser = new DashboardHttp(h.url);
    await browser.signIn(KEY);
    const log = await browser.get("/requests");
    expect(log.status).toBe(200);
    const entry = /href="\/_sandbox\/dashboard(\/requests\/[^"]+)"/.exec(log.text)?.[1];
    expect(entry).toBeDefined();
    const detail = await browser.get(entry as string);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain("400");
  });
});
