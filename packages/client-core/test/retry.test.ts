import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backoffDelay, NetworkError, resilientFetch, retryPolicy, TimeoutError } from "../src/index.js";

let server: Server;
let url: string;
let script: number[] = [];
let hits = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    const status = script.shift() ?? 200;
    if (status === 0) return; // never answer: lets the client time out
    res
      .writeHead(status, { "content-type": "application/json", ...(status === 429 ? { "retry-after": "0" } : {}) })
      .end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits = 0;
  script = [];
});

const noSleep = async () => {};
const fetchWith = (maxRetries: number, timeoutMs?: number) =>
  resilientFetch({
    fetch: (r) => fetch(r),
    retry: retryPolicy({ maxRetries }),
    sleep: noSleep,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

describe("resilientFetch", () => {
  it("retries a GET on 503 and returns the success", async () => {
    script = [503, 503, 200];
    const response = await fetchWith(3)(new Request(url));
    expect(response.status).toBe(200);
    expect(hits).toBe(3);
  });

  it("gives up after maxRetries and hands back the last answer", async () => {
    script = [503, 503, 503];
    expect((await fetchWith(1)(new Request(url))).status).toBe(503);
    expect(hits).toBe(2);
  });

  it("never retries a POST that reached the server", async () => {
    script = [503];
    const response = await fetchWith(3)(new Request(url, { method: "POST", body: "{}" }));
    expect(response.status).toBe(503);
    expect(hits).toBe(1);
  });

  it("turns a timeout into TimeoutError and does not repeat the POST", async () => {
    script = [0];
    await expect(fetchWith(3, 200)(new Request(url, { method: "POST", body: "{}" }))).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(hits).toBe(1);
  });

  it("retries a POST whose connection was never made, then reports it as not sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let attempts = 0;
    const counting = resilientFetch({
      fetch: (r) => {
        attempts++;
        return fetch(r);
      },
      retry: retryPolicy({ maxRetries: 2 }),
      sleep: noSleep,
    });
    const error = await counting(new Request(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" })).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.sent).toBe(false);
    expect(attempts).toBe(3);
  });
});

describe("backoffDelay", () => {
  it("grows exponentially with full jitter, capped, and honours Retry-After", () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect(backoffDelay(policy, 0, null, () => 0.999)).toBe(99);
    expect(backoffDelay(policy, 3, null, () => 0.999)).toBe(799);
    expect(backoffDelay(policy, 10, null, () => 0.999)).toBe(999);
    expect(backoffDelay(policy, 3, null, () => 0)).toBe(0);
    expect(backoffDelay(policy, 0, "2", () => 0.5)).toBe(1000);
    expect(backoffDelay(policy, 0, "0.25", () => 0.5)).toBe(250);
  });
});
