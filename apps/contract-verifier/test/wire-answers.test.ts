import { afterAll, beforeAll, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { reasonOf } from "../src/reporters/console-reporter.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * Answers as the wire has them, found on ReadMe's example specs (@readme/oas-examples) run against
 * Prism: a GET that declares a request body (a search with a query in its body) was never sent, a
 * 407 never read, and both were reported as "the connection failed", the provider's fault; a
 * declared redirect was followed and the page behind it judged instead. And credentials the run
 * cannot leave out (mutualTLS: a client certificate) or cannot know (a scheme the spec never
 * declares) failed the provider for answering a request without them.
 */
async function startSearchServer(): Promise<
  LoopbackServer & { bodiesOnGet: () => number; agents: string[][]; accepts: Set<string> }
> {
  let bodiesOnGet = 0;
  const agents: string[][] = [];
  const accepts = new Set<string>();
  const server = await serveOnLoopback(async (req, res) => {
    // Every User-Agent line as sent, however spelt: a default beside the run's own would be two.
    const lines: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i]?.toLowerCase() === "user-agent") lines.push(req.rawHeaders[i + 1] ?? "");
    agents.push(lines);
    accepts.add(req.headers.accept ?? "(none)");
    const text = await bodyText(req);
    if (req.url === "/search" && req.method === "GET") {
      if (text) bodiesOnGet++;
      try {
        const query = JSON.parse(text) as { q?: unknown };
        if (typeof query.q !== "string" || query.q.length > 50)
          return sendJson(res, 400, { message: "q must be text of at most 50 characters" });
        return sendJson(res, 200, { hits: [] });
      } catch {
        return sendJson(res, 400, { message: "send the query as a JSON body" });
      }
    }
    if (req.url === "/through-proxy") return sendJson(res, 407, { message: "authenticate to the proxy first" });
    if (req.url === "/old") return void res.writeHead(301, { location: "/new" }).end();
    if (req.url === "/new") return sendJson(res, 200, { moved: true });
    if (req.url === "/certified" || req.url === "/undeclared") return sendJson(res, 200, { ok: true });
    sendJson(res, 404, { message: "no such route" });
  });
  return { ...server, bodiesOnGet: () => bodiesOnGet, agents, accepts };
}

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const problem = { description: "refused", ...json({ type: "object", properties: { message: { type: "string" } } }) };
const ok = { description: "ok", ...json({ type: "object" }) };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "wire answers", version: "1" },
  components: { securitySchemes: { clientCertificate: { type: "mutualTLS" } } },
  paths: {
    "/search": {
      get: {
        operationId: "search",
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["q"], properties: { q: { type: "string", maxLength: 50 } } }),
        },
        responses: { "200": ok, "400": problem },
      },
    },
    "/through-proxy": { get: { operationId: "throughProxy", responses: { "200": ok, "407": problem } } },
    "/old": { get: { operationId: "old", responses: { "301": { description: "moved to /new" } } } },
    "/certified": {
      get: {
        operationId: "certified",
        security: [{ clientCertificate: [] }],
        responses: { "200": ok, "401": problem },
      },
    },
    "/undeclared": {
      get: { operationId: "undeclared", security: [{ api_key: [] }], responses: { "200": ok, "401": problem } },
    },
  },
};

let server: Awaited<ReturnType<typeof startSearchServer>>;
let report: VerificationReport;
beforeAll(async () => {
  server = await startSearchServer();
  report = await verifyInlineSpec(SPEC, server.url, "--seed", "5");
});
afterAll(() => server.close());

const result = (id: string) => report.results.find((r) => r.id === id);

it("sends a GET's declared body, and judges what came back", () => {
  expect(server.bodiesOnGet()).toBeGreaterThan(0);
  expect(result("positive.search")?.status).toBe("passed");
  // Every constraint of the body broken, each refused with the declared 400.
  expect(result("negative.search")?.status).toBe("passed");
});

it("reads a 407 and a redirect as answers: declared, so nobody is blamed", () => {
  const failed = report.results.filter((r) => r.status === "failed" || r.status === "error");
  expect(failed.map((r) => `${r.id}: ${reasonOf(r)}`)).toEqual([]);
  expect(result("positive.throughProxy")?.status).toBe("passed");
  expect(result("positive.old")?.status).toBe("passed");
});

it("skips, saying why, the credential checks a request cannot make: a client certificate, an undeclared scheme", () => {
  for (const check of ["auth.missing", "auth.invalid"]) {
    expect(result(`${check}.certified`)).toMatchObject({ status: "skipped" });
    expect(result(`${check}.certified`)?.note).toContain("TLS client certificate");
    expect(result(`${check}.undeclared`)).toMatchObject({ status: "skipped" });
    expect(result(`${check}.undeclared`)?.note).toContain(
      'names "api_key", which components.securitySchemes does not declare',
    );
  }
});

it("says who it is and takes any answer unless the run sets those headers itself, in any case", async () => {
  expect(new Set(server.agents.map((lines) => lines.join(" | ")))).toEqual(new Set(["payspec-verify"]));
  expect(server.accepts).toEqual(new Set(["*/*"]));
  server.agents.length = 0;
  await verifyInlineSpec(SPEC, server.url, "--seed", "5", "--header", "User-Agent: team-ci");
  expect(new Set(server.agents.map((lines) => lines.join(" | ")))).toEqual(new Set(["team-ci"]));
});
