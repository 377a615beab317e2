import { registerJsonBodyParser } from "@payspec/server-kit";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiRequestLog } from "../../api-request-log.js";

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
    registerJsonBodyParser(app);
    log.register(app);
    app.get("/v1/accounts", async () => ({ data: [] }));
    app.post("/v1/payments", async (_request, reply) => reply.code(400).send({ code: "invalid_request" }));
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

  const sendBody = async (text: string) => {
    await fetch(`${base}/v1/payments`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    return log.entries("ws_ring")[0]?.requestBody ?? "";
  };

  it("shows a body as the caller sent it, spacing and Turkish letters included", async () => {
    const sent = '{\n  "amount": 1000,\n  "description": "Kasım faturası ŞĞİ ığş"\n}';
    expect(await sendBody(sent)).toBe(sent);
  });

  it("masks a card number the caller spelled in \\u escapes, in a short body and in one too long to show whole", async () => {
    const escaped = [..."4543590000000006"].map((digit) => `\\u003${digit}`).join("");
    const short = await sendBody(`{"description":"card ${escaped}"}`);
    expect(short).toContain("454359******0006");
    expect(short).not.toContain("4543590000000006");
    expect(short).not.toContain(escaped);
    // As sent, the escaped number sits across the 20,000th character, where a shown text is cut.
    const long = await sendBody(`{"padding":"${"x".repeat(19_931)}","description":"${escaped}"}`);
    expect(long).toContain("454359******0006");
    expect(long).not.toContain("4543590000000006");
    expect(long).not.toContain("\\u0034\\u0035\\u0034\\u0033");
  });
});
