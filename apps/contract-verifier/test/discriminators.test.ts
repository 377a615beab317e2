import { createSpecValidator, pointerOf } from "@payspec/specs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { reasonOf } from "../src/reporters/console-reporter.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * OpenAPI's discriminator, as ReadMe's example specs (discriminators.json, polymorphism.json) and
 * many generated specs write it: members that differ only by the discriminator's value (a circle
 * `{kind, radius?}`, a square `{kind, side?}`) both match a valid shape, so JSON Schema's "exactly
 * one" refused a correct answer, and no request body could be generated at all ("spec problem").
 * The discriminator now chooses the member, in what is generated and in what is judged.
 */
const SHAPES = {
  openapi: "3.0.3",
  info: { title: "shapes", version: "1" },
  paths: {
    "/shapes": {
      post: {
        operationId: "addShape",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Shape" } } },
        },
        responses: {
          "201": {
            description: "added",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Shape" } } },
          },
          "400": { description: "refused", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Shape: {
        oneOf: [{ $ref: "#/components/schemas/Circle" }, { $ref: "#/components/schemas/Square" }],
        discriminator: { propertyName: "kind", mapping: { circle: "#/components/schemas/Circle" } },
      },
      // The square's name is its schema's own: "Square", as OpenAPI says for a member the mapping leaves out.
      Circle: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string" }, radius: { type: "number", minimum: 0 } },
      },
      Square: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string" }, side: { type: "number", minimum: 0 } },
      },
    },
  },
};

/** A provider that reads `kind` to choose the shape, as a discriminator means, and answers what it stored. */
async function startShapes(): Promise<LoopbackServer & { kinds: string[] }> {
  const kinds: string[] = [];
  const server = await serveOnLoopback(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/shapes") return sendJson(res, 404, { message: "no such route" });
    try {
      const shape = JSON.parse(await bodyText(req)) as Record<string, unknown>;
      const size = shape.kind === "circle" ? shape.radius : shape.kind === "Square" ? shape.side : null;
      if (size === null) return sendJson(res, 400, { message: "kind must be circle or Square" });
      if (size !== undefined && (typeof size !== "number" || size < 0))
        return sendJson(res, 400, { message: "a size is a number, 0 or more" });
      kinds.push(shape.kind as string);
      const stored =
        shape.kind === "circle" ? { kind: "circle", radius: size ?? 1 } : { kind: "Square", side: size ?? 1 };
      sendJson(res, 201, stored);
    } catch {
      sendJson(res, 400, { message: "the body is not JSON" });
    }
  });
  return { ...server, kinds };
}

let server: Awaited<ReturnType<typeof startShapes>>;
let report: VerificationReport;
beforeAll(async () => {
  server = await startShapes();
  report = await verifyInlineSpec(SHAPES, server.url, "--seed", "11");
});
afterAll(() => server.close());

it("judges a discriminated answer by the member its name chooses: a correct provider passes clean", () => {
  const wrong = report.results.filter((r) => r.status === "failed" || r.status === "error");
  expect(wrong.map((r) => `${r.id}: ${reasonOf(r)}`)).toEqual([]);
  expect(report.results.find((r) => r.id === "positive.addShape")?.status).toBe("passed");
});

it("generates bodies of each member, named as the provider reads them (the mapping's name, else the schema's)", () => {
  expect(new Set(server.kinds)).toEqual(new Set(["circle", "Square"]));
});

it("refuses, by the discriminator, what no member's name allows, and a member's own rule under its name", () => {
  const validator = createSpecValidator(SHAPES);
  const shape = pointerOf("components", "schemas", "Shape");
  expect(validator.validate(shape, { kind: "circle", radius: 2, side: 3 }).valid).toBe(true);
  expect(validator.validate(shape, { kind: "triangle" }).errors).toEqual([
    '/kind must be equal to one of the allowed values: "circle", "Square" (enum)',
  ]);
  expect(validator.validate(shape, { kind: "Square", side: -1 }).errors).toContain("/side must be >= 0 (minimum)");
  expect(validator.validate(shape, { radius: 2 }).errors).toContain(
    "(root) must have required property 'kind' (required)",
  );
});
