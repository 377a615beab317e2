import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * `nullable` as the document's version means it, and schema messages that show the offending value
 * (issue: the verifier on a shared staging server). Up to OpenAPI 3.0.2, `nullable: true` beside a
 * oneOf and no type allowed null, as the tools of the time read it; 3.0.3 says it then has no effect,
 * and the message for a null must say so rather than "must be string", "must be object".
 */

const owner = (version: string) => ({
  openapi: version,
  info: { title: "Content items", version: "1" },
  paths: {
    "/items/first": {
      get: {
        operationId: "firstItem",
        responses: {
          "200": {
            description: "an item",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["owner", "count", "card"],
                  properties: {
                    owner: { nullable: true, oneOf: [{ type: "string" }, { type: "object" }] },
                    count: { type: "integer" },
                    card: { type: "string", pattern: "^\\d{6}\\*+\\d{4}$" },
                    secret: { type: "integer" },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

let server: LoopbackServer;
let answer: Record<string, unknown> = {};
beforeAll(async () => {
  server = await serveOnLoopback((_req, res) => sendJson(res, 200, answer));
});
afterAll(() => server.close());

const messages = (report: VerificationReport) =>
  report.results.find((r) => r.id === "positive.firstItem")?.violations.map((v) => v.actual) ?? [];

describe("schema messages on another spec", () => {
  it("reads nullable without a type as allowing null in OpenAPI 3.0.1", async () => {
    answer = { owner: null, count: 3, card: "552879******0008" };
    const report = await verifyInlineSpec(owner("3.0.1"), server.url);
    expect(messages(report)).toEqual([]);
  });

  it("says, for a null in OpenAPI 3.0.3, that nullable was ignored and why", async () => {
    answer = { owner: null, count: 3, card: "552879******0008" };
    const report = await verifyInlineSpec(owner("3.0.3"), server.url);
    const said = messages(report).join("\n");
    expect(said).toContain(
      "/owner must match exactly one schema in oneOf (oneOf), got null; nullable: true is ignored here: OpenAPI 3.0.3 gives nullable effect only beside a type in the same schema",
    );
  });

  it("shows the offending value, a card number masked and a sensitive field's value never", async () => {
    answer = { owner: "ayşe", count: "12", card: "5528790000000008", secret: "hunter2-hunter2" };
    const report = await verifyInlineSpec(owner("3.0.1"), server.url);
    const said = messages(report).join("\n");
    expect(said).toContain('/count must be integer (type), got "12"');
    expect(said).toContain("/card must match pattern");
    expect(said).toContain('got "552879******0008"');
    expect(said).not.toContain("5528790000000008");
    expect(said).toContain("/secret must be integer (type), got a value (not shown: a sensitive field)");
    expect(said).not.toContain("hunter2");
  });
});
