import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, serveOnLoopback } from "./support/loopback-server.js";

/**
 * A schema of nested lists, every property optional: filled three items deep with every property,
 * as json-schema-faker does, one valid body is hundreds of kilobytes (Unleash's feature import made
 * 720 kB, sent about 500 times a run). The run sends a smaller valid body instead.
 */
const leaf = {
  type: "object",
  properties: Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`field${i}`, { type: "string", minLength: 40, maxLength: 64 }]),
  ),
};
const nest = (inner: object, depth: number): object =>
  depth === 0 ? inner : { type: "object", properties: { items: { type: "array", items: nest(inner, depth - 1) } } };
const spec = {
  openapi: "3.1.0",
  info: { title: "nested shipments", version: "1.0.0" },
  paths: {
    "/shipments": {
      post: {
        operationId: "createShipment",
        requestBody: { required: true, content: { "application/json": { schema: nest(leaf, 5) } } },
        responses: { "204": { description: "created" }, "400": { description: "refused" } },
      },
    },
  },
};

let server: LoopbackServer;
let largest = 0;
let bodies = 0;

beforeAll(async () => {
  server = await serveOnLoopback(async (req, res) => {
    const size = Buffer.byteLength(await bodyText(req));
    bodies++;
    largest = Math.max(largest, size);
    res.writeHead(size > 2 ? 204 : 400).end();
  });
});
afterAll(() => server?.close());

it("sends a valid body under 64 kB when the schema's fullest body is hundreds of kB", async () => {
  const report = await verifyInlineSpec(spec, server.url, "--base-path", "/");
  expect(bodies).toBeGreaterThan(0);
  expect(report.results.find((r) => r.id === "positive.createShipment")?.status).toBe("passed");
  expect(largest).toBeGreaterThan(0);
  expect(largest).toBeLessThanOrEqual(64 * 1024);
});
