import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { SERVER_DOWN_CHECK } from "../src/server-down-result.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, sendJson } from "./support/loopback-server.js";

/*
 * A server that a request brings down is a finding, and the run stops there (issue: the verifier on
 * a shared staging server): one failure naming the requests sent just before, every later check
 * "not run" rather than hundreds of "connection refused" failures; --wait-for-restart waits,
 * bounded, for it to come back and goes on.
 */

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const spec = {
  openapi: "3.1.0",
  info: { title: "Feature flags", version: "1" },
  paths: {
    "/features": {
      get: {
        operationId: "listFeatures",
        responses: { "200": json({ type: "array", items: { type: "string" } }) },
      },
    },
    "/features/validate": {
      post: {
        operationId: "validateFeatures",
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 20 } } }),
        },
        responses: { "200": json({ type: "object" }), "400": { description: "bad" } },
      },
    },
    "/tags": {
      get: { operationId: "listTags", responses: { "200": json({ type: "array", items: { type: "string" } }) } },
    },
    "/health": { get: { operationId: "health", responses: { "200": json({ type: "object" }) } } },
  },
};

/** A provider whose process "dies" (stops listening, drops every connection) at its first POST. */
class FragileServer {
  server: Server | undefined;
  port = 0;
  deaths = 0;
  afterDeath: string[] = [];

  async start(): Promise<void> {
    const server = createServer(async (req, res) => {
      const text = await bodyText(req);
      if (this.deaths > 0) this.afterDeath.push(`${req.method} ${req.url}`);
      if (req.method === "POST" && this.deaths === 0) {
        this.deaths++;
        // As a crashed process: no answer, the socket reset, nothing listening any more.
        req.socket.destroy();
        await this.stop();
        return;
      }
      if (req.url === "/features/validate") return sendJson(res, text.includes('"name"') ? 200 : 400, {});
      if (req.url === "/features" || req.url === "/tags") return sendJson(res, 200, ["a"]);
      return sendJson(res, 200, {});
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let fragile: FragileServer | undefined;
afterEach(async () => {
  await fragile?.stop();
  fragile = undefined;
});

describe("a target that stops answering mid-run", () => {
  it("is one failure naming the request that brought it down, and the run stops sending", async () => {
    fragile = new FragileServer();
    await fragile.start();
    const report = await verifyInlineSpec(spec, fragile.url, "--seed", "2");

    const down = report.results.find((r) => r.id === SERVER_DOWN_CHECK);
    expect(down?.status).toBe("failed");
    const last = down?.violations[0];
    expect(last?.operation).toBe("POST /features/validate");
    expect(last?.actual).toContain(
      "the last request before the server stopped answering (sent by positive.validateFeatures",
    );
    expect(last?.actual).toContain("ECONNREFUSED");
    expect(last?.reproduce).toMatch(/^curl -sS -X POST '.*\/features\/validate'/);
    expect(last?.rerun).toContain("--only positive.validateFeatures");
    // The request before it, with its own lines too.
    expect(down?.violations[1]?.operation).toBe("GET /features");
    expect(down?.violations[1]?.actual).toContain(
      "2 requests before it stopped answering (sent by positive.listFeatures, answered 200)",
    );

    // Every check after it is not run, none failed for "connection refused".
    const after = report.results.slice(report.results.findIndex((r) => r.id === SERVER_DOWN_CHECK) + 1);
    const notRun = after.filter((r) => r.note?.startsWith("not run: the server stopped answering"));
    expect(notRun.map((r) => r.id)).toContain("positive.health");
    expect(report.results.filter((r) => r.status === "failed").map((r) => r.id)).toEqual([SERVER_DOWN_CHECK]);
    expect(report.results.find((r) => r.id === "positive.validateFeatures")?.note).toMatch(/^not run/);
  });

  it("with --wait-for-restart, waits for it to come back and goes on with the checks", async () => {
    fragile = new FragileServer();
    await fragile.start();
    const server = fragile;
    // Its supervisor starts it again after a second, on the same port.
    const restarted = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (server.deaths > 0 && !server.server) {
          clearInterval(poll);
          setTimeout(() => void server.start().then(resolve), 1_000);
        }
      }, 50);
    });
    const report = await verifyInlineSpec(spec, server.url, "--seed", "2", "--wait-for-restart", "20");
    await restarted;
    const down = report.results.find((r) => r.id === SERVER_DOWN_CHECK);
    expect(down?.status).toBe("failed");
    expect(down?.note).toContain("came back");
    expect(report.results.find((r) => r.id === "positive.health")?.status).toBe("passed");
    expect(server.afterDeath).toContain("GET /health");
  });
});

describe("a target that stops answering after the run's last request", () => {
  /** A provider that answers every request, and dies right after answering the `dieAfter`-th. */
  async function serving(dieAfter: number) {
    let answered = 0;
    const server: Server = createServer(async (req, res) => {
      await bodyText(req);
      if (req.url === "/features/validate") sendJson(res, 400, {});
      else if (req.url === "/features" || req.url === "/tags") sendJson(res, 200, ["a"]);
      else sendJson(res, 200, {});
      if (++answered === dieAfter) res.on("finish", () => server.close() && server.closeAllConnections());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      answered: () => answered,
      stop: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
    };
  }

  it("is named: a last probe finds it silent, and the report says so after the checks' own results", async () => {
    // How many requests a run sends this provider: the same each time, for the same seed. The last
    // is the probe after the checks, which the dying provider does not answer.
    const counting = await serving(Number.POSITIVE_INFINITY);
    onTestFinished(counting.stop);
    const faithful = await verifyInlineSpec(spec, counting.url, "--seed", "2");
    expect(faithful.results.map((r) => r.id)).not.toContain(SERVER_DOWN_CHECK);
    const requests = counting.answered();
    expect(requests).toBeGreaterThan(4);

    const dying = await serving(requests - 1);
    onTestFinished(dying.stop);
    const report = await verifyInlineSpec(spec, dying.url, "--seed", "2");
    expect(dying.answered()).toBe(requests - 1);
    const down = report.results.find((r) => r.id === SERVER_DOWN_CHECK);
    expect(down?.status).toBe("failed");
    expect(down?.note).toContain("no longer answers after the run's last request");
    expect(down?.violations[0]?.actual).toContain("the last request before the server stopped answering");
    expect(down?.violations[0]?.actual).toContain("ECONNREFUSED");
    // Every check had its answer: only this finding fails.
    expect(report.results.filter((r) => r.status === "failed").map((r) => r.id)).toEqual(
      faithful.results
        .filter((r) => r.status === "failed")
        .map((r) => r.id)
        .concat(SERVER_DOWN_CHECK),
    );
  });
});
