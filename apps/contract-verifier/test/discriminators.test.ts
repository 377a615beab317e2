import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSpecValidator, pointerOf } from "@payspec/specs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { reasonOf } from "../src/reporters/console-reporter.js";

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
async function startShapes(): Promise<{ url: string; kinds: string[]; close(): Promise<void> }> {
  const kinds: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.method !== "POST" || req.url !== "/shapes") return json(404, { message: "no such route" });
      try {
        const shape = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        const size = shape.kind === "circle" ? shape.radius : shape.kind === "Square" ? shape.side : null;
        if (size === null) return json(400, { message: "kind must be circle or Square" });
        if (size !== undefined && (typeof size !== "number" || size < 0))
          return json(400, { message: "a size is a number, 0 or more" });
        kinds.push(shape.kind as string);
        json(
          201,
          shape.kind === "circle" ? { kind: "circle", radius: size ?? 1 } : { kind: "Square", side: size ?? 1 },
        );
      } catch {
        json(400, { message: "the body is not JSON" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    kinds,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: Awaited<ReturnType<typeof startShapes>>;
let report: VerificationReport;
beforeAll(async () => {
  server = await startShapes();
  const spec = join(await mkdtemp(join(tmpdir(), "payspec-shapes-")), "shapes.json");
  await writeFile(spec, JSON.stringify(SHAPES));
  report = await runVerification(parseOptions(["--spec", spec, "--target", server.url, "--seed", "11"]));
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
