import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer } from "../src/index.js";

/** Two real servers on 127.0.0.1: one refusing text no database can keep, one not asked to. */
const servers = [true, false].map((refuseUnstorableText) => {
  const app = createApiServer({ operations: ["GET /v1/things/{id}", "GET /api/v1/things/{id}"], refuseUnstorableText });
  const seen: string[] = [];
  for (const path of ["/v1/things/:id", "/api/v1/things/:id"])
    app.get(path, async (request) => {
      seen.push(path);
      return { ok: true, query: request.query };
    });
  return { app, seen, url: "" };
});
const [refusing, plain] = servers as [(typeof servers)[number], (typeof servers)[number]];

beforeAll(async () => {
  for (const server of servers) server.url = await server.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => Promise.all(servers.map((server) => server.app.close())));

const get = async (base: string, path: string) => {
  const reply = await fetch(`${base}${path}`);
  return { status: reply.status, requestId: reply.headers.get("x-request-id"), body: (await reply.json()) as any };
};

describe("createApiServer({ refuseUnstorableText })", () => {
  it("refuses a NUL in the path or the query before any handler, in the API's shape", async () => {
    const cases = [
      ["/v1/things/a%00b", "id", "invalid_request"],
      ["/v1/things/a?note=x%00", "note", "invalid_request"],
      ["/api/v1/things/a%00", undefined, 6001],
    ] as const;
    for (const [path, param, code] of cases) {
      const reply = await get(refusing.url, path);
      expect(reply.status, path).toBe(400);
      expect(reply.body.code, path).toBe(code);
      if (param) expect(reply.body.param, path).toBe(param);
      expect(reply.body.message, path).toMatch(/NUL character or a lone surrogate/);
      // Still an answer of this server: its request id is on it.
      expect(reply.requestId, path).toMatch(/^req_/);
    }
    expect(refusing.seen).toEqual([]);
    expect((await get(refusing.url, "/v1/things/ş?note=İğ")).body).toEqual({ ok: true, query: { note: "İğ" } });
  });

  it("leaves such text to the handlers when not asked to refuse it", async () => {
    const reply = await get(plain.url, "/v1/things/a%00b");
    expect(reply.status).toBe(200);
    expect(plain.seen).toEqual(["/v1/things/:id"]);
  });
});
