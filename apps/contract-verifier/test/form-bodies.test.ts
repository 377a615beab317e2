import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * Every request body media type (issue: the verifier on a shared staging server): multipart uploads
 * and urlencoded forms are generated and sent, not left out unreported; a media type the run cannot
 * make is listed; a required property with no schema of its own is no "spec problem".
 */

const spec = {
  openapi: "3.0.1",
  info: { title: "Files and forms", version: "1" },
  paths: {
    "/files": {
      post: {
        operationId: "uploadFile",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["file", "folder"],
                properties: {
                  file: { type: "string", format: "binary" },
                  folder: { type: "string", minLength: 1, maxLength: 20 },
                  tags: { type: "array", items: { type: "string", maxLength: 10 }, maxItems: 3 },
                },
              },
              encoding: { file: { contentType: "text/plain" } },
            },
          },
        },
        responses: { "201": { description: "stored" }, "400": { description: "bad upload" } },
      },
    },
    "/session": {
      post: {
        operationId: "signIn",
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["user", "remember"],
                properties: { user: { type: "string", minLength: 1, maxLength: 20 }, remember: { type: "boolean" } },
              },
            },
          },
        },
        responses: { "204": { description: "signed in" }, "400": { description: "bad form" } },
      },
    },
    "/documents": {
      post: {
        operationId: "addDocument",
        requestBody: { required: true, content: { "application/xml": { schema: { type: "object" } } } },
        responses: { "204": { description: "imported" } },
      },
    },
    "/items": {
      post: {
        operationId: "addItem",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              // `name` is required with no schema of its own: anything will do, beside a nested object.
              schema: {
                type: "object",
                required: ["name", "config"],
                properties: {
                  config: {
                    type: "object",
                    required: ["mode"],
                    properties: {
                      mode: {
                        oneOf: [
                          { type: "string", enum: ["a"] },
                          { type: "integer", minimum: 5 },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
        },
        responses: { "201": { description: "added" }, "400": { description: "bad item" } },
      },
    },
  },
};

let server: LoopbackServer;
const received: { path: string; type: string; body: string }[] = [];
beforeAll(async () => {
  server = await serveOnLoopback(async (req, res) => {
    const body = await bodyText(req);
    const type = req.headers["content-type"] ?? "";
    received.push({ path: req.url ?? "", type, body });
    if (req.url === "/files") {
      const boundary = /boundary=([^;]+)/.exec(type)?.[1];
      const ok =
        boundary !== undefined &&
        body.includes(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=`) &&
        body.includes('name="folder"\r\n\r\n') &&
        body.endsWith(`--${boundary}--\r\n`);
      return ok ? res.writeHead(201).end() : sendJson(res, 400, { message: "not a multipart upload" });
    }
    if (req.url === "/session") {
      const form = new URLSearchParams(body);
      const ok =
        type === "application/x-www-form-urlencoded" &&
        form.get("user") &&
        /^(true|false)$/.test(form.get("remember") ?? "");
      return ok ? res.writeHead(204).end() : sendJson(res, 400, { message: "bad form" });
    }
    if (req.url === "/items") return res.writeHead(201).end();
    return res.writeHead(204).end();
  });
});
afterAll(() => server.close());

const result = (report: VerificationReport, id: string) => report.results.find((r) => r.id === id);

describe("request bodies of every media type", () => {
  it("sends multipart uploads and urlencoded forms, lists what it cannot make, and blames no spec wrongly", async () => {
    const report = await verifyInlineSpec(spec, server.url, "--seed", "5");
    expect(result(report, "positive.uploadFile")?.status).toBe("passed");
    expect(result(report, "generated.uploadFile")?.status).toBe("passed");
    expect(result(report, "positive.signIn")?.status).toBe("passed");
    const upload = received.find((r) => r.path === "/files");
    expect(upload?.type).toMatch(/^multipart\/form-data; boundary=payspec-[0-9a-f]+$/);
    expect(upload?.body).toContain("Content-Type: text/plain");

    const xml = result(report, "positive.addDocument");
    expect(xml?.status).toBe("skipped");
    expect(xml?.note).toContain("its request body is none the run can make (application/xml");
    expect(report.warnings?.join("\n")).toContain("request bodies not made");
    expect(report.warnings?.join("\n")).toContain("POST /documents (application/xml)");

    for (const id of ["positive.addItem", "generated.addItem", "negative.addItem"])
      expect(result(report, id)?.note ?? "", id).not.toContain("spec problem");
    expect(result(report, "generated.addItem")?.status).toBe("passed");
  });
});
