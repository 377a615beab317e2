import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../src/index.js";

let upstream: Server;
let proxy: FaultProxy;
const received: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push(`${req.method} ${req.url} ${body}`);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id: "pay_1", status: "pending" }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  proxy = await startFaultProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(() => {
  proxy.clear();
  received.length = 0;
});

it("forwards method, path, headers and body untouched when no rule matches", async () => {
  const reply = await fetch(`${proxy.url}/v1/payments?x=1`, {
    method: "POST",
    body: '{"a":1}',
    headers: { "content-type": "application/json" },
  });
  expect(await reply.json()).toEqual({ id: "pay_1", status: "pending" });
  expect(received).toEqual(['POST /v1/payments?x=1 {"a":1}']);
  expect(proxy.seen.map((r) => r.url)).toEqual(["/v1/payments?x=1"]);
});

it("answers for the target a limited number of times", async () => {
  proxy.inject({ when: () => true, fault: { kind: "respond", status: 503, body: { code: "unavailable" } }, times: 1 });
  expect((await fetch(proxy.url)).status).toBe(503);
  expect((await fetch(proxy.url)).status).toBe(200);
  expect(received).toHaveLength(1);
});

it("rewrites JSON bodies and replaces headers", async () => {
  proxy.inject({ when: () => true, fault: { kind: "rewrite", rewrite: ({ status: _s, ...rest }) => rest }, times: 1 });
  expect(await (await fetch(proxy.url)).json()).toEqual({ id: "pay_1" });
  proxy.inject({ when: () => true, fault: { kind: "headers", headers: { "content-type": "text/html" } }, times: 1 });
  expect((await fetch(proxy.url)).headers.get("content-type")).toBe("text/html");
});

it("delays the answer", async () => {
  proxy.inject({ when: () => true, fault: { kind: "delay", ms: 300 }, times: 1 });
  const aborted = fetch(proxy.url, { signal: AbortSignal.timeout(100) });
  await expect(aborted).rejects.toThrow();
});

it("replaces status and body together, and shows rules the request body", async () => {
  proxy.inject({
    when: (r) => r.body.includes('"turn":"me"'),
    fault: { kind: "replace", replace: ({ body }) => ({ status: 409, body: { code: "conflict", was: body.status } }) },
    times: 1,
  });
  const reply = await fetch(proxy.url, {
    method: "POST",
    body: '{"turn":"me"}',
    headers: { "content-type": "application/json" },
  });
  expect(reply.status).toBe(409);
  expect(await reply.json()).toEqual({ code: "conflict", was: "pending" });
  expect((await fetch(proxy.url, { method: "POST", body: '{"turn":"me"}' })).status).toBe(200);
});
