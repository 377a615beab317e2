import { afterEach, describe, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * A provider that refuses everything fails again, without false positives (issue: the verifier on a
 * shared staging server): a declared refusal stays a warning (a business rule the run cannot know),
 * but not for a request holding nothing but credentials, nor when most operations refuse all valid data.
 */

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const refusals = { "409": { description: "exists already" }, "422": { description: "unprocessable" } };
const named = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", minLength: 1, maxLength: 20 } },
};
const spec = {
  openapi: "3.1.0",
  info: { title: "Tags and pets", version: "1" },
  paths: {
    "/tags": {
      get: {
        operationId: "listTags",
        responses: { "200": json({ type: "array", items: { type: "string" } }), ...refusals },
      },
      post: {
        operationId: "addTag",
        requestBody: { required: true, ...json(named) },
        responses: { "201": json(named), ...refusals },
      },
    },
    "/pets": {
      get: {
        operationId: "findPets",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 50 } }],
        responses: { "200": json({ type: "array", items: named }), ...refusals },
      },
      post: {
        operationId: "addPet",
        requestBody: { required: true, ...json(named) },
        responses: { "201": json(named), ...refusals },
      },
    },
    "/owners": {
      post: {
        operationId: "addOwner",
        requestBody: { required: true, ...json(named) },
        responses: { "201": json(named), ...refusals },
      },
    },
  },
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const status = (report: VerificationReport, id: string) => report.results.find((r) => r.id === id)?.status;

describe("a provider refusing valid data", () => {
  it("fails when it refuses everything with a declared 422, even GET /tags, which takes no input", async () => {
    server = await serveOnLoopback(async (req, res) => {
      await bodyText(req);
      sendJson(res, 422, { message: "unprocessable" });
    });
    const report = await verifyInlineSpec(spec, server.url);
    const listTags = report.results.find((r) => r.id === "positive.listTags");
    expect(listTags?.status).toBe("failed");
    expect(listTags?.violations[0]?.expected).toContain("a request with no parameters and no body accepted");
    // The others each had input a business rule could refuse: warnings alone, but most of the run refused.
    expect(status(report, "positive.addPet")).toBe("passed");
    const whole = report.results.find((r) => r.id === "acceptance.valid-data");
    expect(whole?.status).toBe("failed");
    expect(whole?.violations[0]?.actual).toContain("5 of 5 operations refused every valid request with a 4xx");
  });

  it("passes a provider that keeps one business rule (a declared 409), with a warning that says so", async () => {
    server = await serveOnLoopback(async (req, res) => {
      const text = await bodyText(req);
      const [path] = (req.url ?? "").split("?");
      const limit = new URL(req.url ?? "", "http://x").searchParams.get("limit");
      if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 50))
        return sendJson(res, 422, { message: "limit" });
      if (req.method === "GET") return sendJson(res, 200, path === "/tags" ? ["a"] : [{ name: "rex" }]);
      if (path === "/owners") return sendJson(res, 409, { message: "exists already" });
      const body = JSON.parse(text || "{}") as { name?: unknown };
      const valid = typeof body.name === "string" && body.name.length >= 1 && body.name.length <= 20;
      return valid ? sendJson(res, 201, { name: body.name }) : sendJson(res, 422, { message: "name" });
    });
    const report = await verifyInlineSpec(spec, server.url);
    expect(status(report, "positive.addOwner")).toBe("passed");
    expect(report.warnings?.join("\n")).toContain("POST /owners: every valid request got a declared 409");
    expect(status(report, "acceptance.valid-data")).toBe("passed");
    expect(report.results.filter((r) => r.status === "failed").map((r) => r.id)).toEqual([]);
  });
});
