import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiRequestLog } from "../../src/dashboard/api-request-log.js";

/** A real server on 127.0.0.1 with nothing but the request log in front of one route. */
describe("the request log", () => {
  const log = new ApiRequestLog();
  const app = Fastify();
  let base = "";
  beforeAll(async () => {
    app.decorateRequest("workspace", "");
    app.addHook("onRequest", (request, _reply, done) => {
      request.workspace = "ws_ring";
      done();
    });
    log.register(app);
    app.get("/v1/accounts", async () => ({ data: [] }));
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => app.close());

  it("keeps a workspace's last 100 requests, newest first, and forgets the ones before", async () => {
    for (let n = 1; n <= 250; n++) await fetch(`${base}/v1/accounts?n=${n}`);
    const entries = log.entries("ws_ring");
    expect(entries).toHaveLength(100);
    expect(entries.map((e) => e.url)).toEqual(Array.from({ length: 100 }, (_, i) => `/v1/accounts?n=${250 - i}`));
    const oldestKept = entries[99] as (typeof entries)[number];
    expect(log.entry("ws_ring", oldestKept.id)?.url).toBe("/v1/accounts?n=151");
    expect(log.entry("ws_ring", oldestKept.id - 1)).toBeUndefined();
  });
});
