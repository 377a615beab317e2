import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApiFailure,
  maskCardNumbers,
  parseRequest,
  registerErrorHandling,
  registerJsonBodyParser,
  registerRequestLog,
  requestLogger,
} from "../src/index.js";

let app: FastifyInstance;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  app = Fastify(requestLogger((line) => lines.push(line)));
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  registerRequestLog(app);
  const body = z.object({ body: z.strictObject({ card: z.object({ cvc: z.string().regex(/^\d{3,4}$/) }) }) });
  for (const path of ["/v1/echo", "/api/v1/echo"])
    app.post(path, async (request) => parseRequest(body, { body: request.body }).body);
  app.post("/api/v1/echo-empty", async (request) => ({ body: request.body ?? null }));
  app.post("/v1/body-text", async (request) => ({ text: request.bodyText ?? null }));
  app.get("/v1/boom", async () => {
    throw new Error("a bug");
  });
  app.get("/api/v1/conflict", async () => {
    throw new ApiFailure("invalid_request", "referenceId already used", { gatewayCode: 6002 });
  });
  url = await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => app.close());

const post = (path: string, body: string, type = "application/json") =>
  fetch(`${url}${path}`, { method: "POST", body, headers: { "content-type": type } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

describe("server-kit", () => {
  it("renders each failure in the shape of the API the path belongs to", async () => {
    expect(await post("/v1/echo", "{bad")).toMatchObject({ status: 400, body: { code: "invalid_request" } });
    expect(await post("/api/v1/echo", "{bad")).toMatchObject({ status: 400, body: { code: 6001 } });
    expect(await post("/api/v1/echo", "x", "text/plain")).toMatchObject({ status: 400, body: { code: 6001 } });
    const conflict = await fetch(`${url}/api/v1/conflict`).then((r) => r.json());
    expect(conflict).toEqual({ code: 6002, message: "referenceId already used" });
  });

  it("names the first bad field without quoting its value", async () => {
    const reply = await post("/api/v1/echo", JSON.stringify({ card: { cvc: "98765" } }));
    expect(reply.body.message).toMatch(/^card\.cvc: /);
    expect(reply.body.message).not.toContain("98765");
    const unknown = await post("/v1/echo", JSON.stringify({ card: { cvc: "123" }, extra: 1 }));
    expect(unknown.body).toMatchObject({ code: "invalid_request", param: "extra" });
  });

  it("turns an unexpected error into a 500 in the API's shape, and unknown routes into 404", async () => {
    const boom = await fetch(`${url}/v1/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({
      code: "internal_error",
      message: "Something went wrong on our side. Retry later.",
    });
    const missing = await fetch(`${url}/api/v1/missing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: number }).code).toBe(4004);
  });

  it("logs one JSON line per answer (id, method, path, status, ms) with digit runs masked", async () => {
    lines.length = 0;
    await fetch(`${url}/api/v1/reference/5528790000000008?cvc=123`);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? "{}");
    expect(entry).toMatchObject({
      level: 30,
      msg: "request completed",
      method: "GET",
      path: "/api/v1/reference/552879******0008",
      status: 404,
      reqId: expect.any(String),
      responseTimeMs: expect.any(Number),
    });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(maskCardNumbers("/x/4000000000000000006/y")).toBe("/x/400000*********0006/y");
    lines.length = 0;
    await fetch(`${url}/v1/5516.3991.9193.8598`);
    await fetch(`${url}/v1/5767+1900+3076+0632`);
    await fetch(`${url}/v1/5214%209284%205200%200493`);
    expect(lines.map((line) => JSON.parse(line).path).join("\n")).not.toMatch(/9193|1900\D?3076|9284\D*5200/);
    expect(lines).toHaveLength(3);
  });
});

describe("bodies", () => {
  it("accepts a POST with no body and no content type, but not a body without one", async () => {
    const empty = await fetch(`${url}/api/v1/echo-empty`, { method: "POST", headers: { "content-length": "0" } });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ body: null });
    const chunked = await fetch(`${url}/api/v1/echo-empty`, {
      method: "POST",
      body: new ReadableStream({ start: (c) => c.close() }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(200);
    const untyped = await fetch(`${url}/api/v1/echo-empty`, {
      method: "POST",
      body: "x",
      headers: { "content-type": "" },
    });
    expect(untyped.status).toBe(400);
  });

  it("keeps a JSON body's text as it came, once it has parsed, for a request log to show", async () => {
    const sent = '{ "amount" : 1000,\n  "note": "Kasım şığ İ" }';
    expect(await post("/v1/body-text", sent)).toEqual({ status: 200, body: { text: sent } });
    const none = await fetch(`${url}/v1/body-text`, { method: "POST", headers: { "content-length": "0" } });
    expect(await none.json()).toEqual({ text: null });
    expect((await post("/v1/body-text", "{bad")).status).toBe(400);
  });
});

describe("validation messages name the spec's own bounds", () => {
  const installment = z.object({ body: z.object({ installment: z.int().min(1).max(36), amount: z.int() }) });
  const failure = (value: unknown) => {
    try {
      parseRequest(installment, { body: value });
    } catch (error) {
      return error as ApiFailure & { errors?: { field: string; message: string }[] };
    }
    throw new Error("expected a failure");
  };

  it("cites the spec's bound, not zod's integer limit, and masks no number that is not a card number", () => {
    const tooBig = failure({ installment: 2 ** 53 + 2, amount: 1 });
    expect(tooBig.message).toBe("installment: Too big: expected number to be <=36");
    expect(failure({ installment: 37, amount: 1 }).message).toBe("installment: Too big: expected number to be <=36");
  });

  it("tells zod's own limit, when it is the only one, as 2^53 − 1 rather than a maskable digit run", () => {
    const failed = failure({ installment: 1, amount: 2 ** 53 + 2 });
    expect(failed.message).toBe("amount: Too big: expected a whole number of at most 2^53 − 1");
    expect(failed.message).not.toContain("*");
  });
});
