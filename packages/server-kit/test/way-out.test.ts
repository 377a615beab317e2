import type { ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createApiServer } from "../src/index.js";

let app: FastifyInstance;
let port: number;
/** The raw answers of /v1/probe, in the order their requests were handled. */
const handled: ServerResponse[] = [];
/** Whether the first probe's answer had been written when the second probe was handled. */
let firstWrittenBeforeSecondHandled: boolean | undefined;

beforeAll(async () => {
  app = createApiServer({ operations: ["GET /v1/probe", "GET /v1/warm-up", "POST /v1/echo"] });
  app.get("/v1/warm-up", async () => ({ ok: true }));
  app.post("/v1/echo", async (request) => request.body);
  app.get("/v1/probe", async (_request, reply) => {
    if (handled.length === 1) firstWrittenBeforeSecondHandled = handled[0]?.headersSent;
    handled.push(reply.raw);
    return { probe: handled.length };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** A kept-alive connection that has had one answer already, so the server has accepted it. */
async function warmConnection(): Promise<{ socket: Socket; next: () => Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  socket.setEncoding("utf8");
  let buffered = "";
  const waiting: ((text: string) => void)[] = [];
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    // Each answer here is small and complete once its JSON body's closing brace has arrived.
    if (buffered.endsWith("}")) {
      const answer = buffered;
      buffered = "";
      waiting.shift()?.(answer);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  socket.write("GET /v1/warm-up HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  expect(await next()).toMatch(/^HTTP\/1\.1 200/);
  return { socket, next };
}

describe("answers are written once the event loop's turn has read every request that arrived", () => {
  it("handles a second request that arrived alongside the first before writing the first's answer", async () => {
    const a = await warmConnection();
    const b = await warmConnection();
    // Written in one synchronous step, both requests are waiting when the server's next turn polls.
    // The thread then sleeps a moment before that turn: on a busy machine the kernel may deliver
    // loopback data a little later than the write, and both must have arrived for the test to ask.
    a.socket.write("GET /v1/probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    b.socket.write("GET /v1/probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    const answers = await Promise.all([a.next(), b.next()]);
    a.socket.destroy();
    b.socket.destroy();

    expect(handled).toHaveLength(2);
    expect(firstWrittenBeforeSecondHandled).toBe(false);
    // Waiting for the turn's end changes nothing in what is sent: status, request id, body.
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).toMatch(/\r\nx-request-id: req_[\w-]+\r\n/i);
      expect(answer).toMatch(/\r\n\r\n\{"probe":[12]\}$/);
    }
  });
});

describe("every answer carries its request id, errors included", () => {
  it("on a 404, a 405, a body that is not JSON and a malformed path, as on a 200", async () => {
    const base = `http://127.0.0.1:${port}`;
    const answers = await Promise.all([
      fetch(`${base}/v1/warm-up`),
      fetch(`${base}/v1/nowhere`),
      fetch(`${base}/v1/echo`),
      fetch(`${base}/v1/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      fetch(`${base}/v1/probe%zz`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 405, 400, 400]);
    const ids = answers.map((answer) => answer.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[\w-]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("closing", () => {
  it("ends a kept-alive connection whose request was being answered when the close began, instead of holding the close", async () => {
    const slow = createApiServer({ operations: ["GET /v1/slow"] });
    let started: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    slow.get("/v1/slow", async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { slow: true };
    });
    await slow.listen({ port: 0, host: "127.0.0.1" });
    // Whatever happens to the case, nothing it opened stays open.
    onTestFinished(() => slow.server.closeAllConnections());
    const { port: slowPort } = slow.server.address() as { port: number };
    const socket = connect(slowPort, "127.0.0.1");
    socket.setEncoding("utf8");
    let answer = "";
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(`GET /v1/slow HTTP/1.1\r\nHost: 127.0.0.1:${slowPort}\r\nConnection: keep-alive\r\n\r\n`);
    await inFlight;
    // Without closing it once idle, the kept-alive connection holds this close for 72 s (past the
    // case's bound); with it, the answer is written and then the connection ends.
    await slow.close();
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('{"slow":true}');
  }, 20_000);
});
