import { describe, expect, it } from "vitest";
import { createSpecValidator } from "../src/index.js";

/** A Django REST framework API as drf-spectacular writes it (ARA's labels): the server makes `id` and `created`. */
const spec = {
  openapi: "3.0.3",
  info: { title: "labels", version: "1" },
  paths: {
    "/labels": {
      post: {
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Label" } } } },
        responses: {
          "201": {
            description: "",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Label" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Label: {
        type: "object",
        properties: {
          id: { type: "integer", readOnly: true },
          created: { $ref: "#/components/schemas/Created" },
          name: { type: "string", maxLength: 255 },
          secret: { type: "string", writeOnly: true },
        },
        required: ["created", "id", "name", "secret"],
      },
      Created: { type: "string", format: "date-time", readOnly: true },
    },
  },
};

const request = "#/paths/~1labels/post/requestBody/content/application~1json/schema";
const response = "#/paths/~1labels/post/responses/201/content/application~1json/schema";

describe("readOnly and writeOnly properties that are required (OpenAPI 3.0.3, Schema Object)", () => {
  const validator = createSpecValidator(spec);

  it("asks a request for its writeOnly properties but not for its readOnly ones, also through a $ref", () => {
    expect(validator.validate(request, { name: "üretim", secret: "s" })).toEqual({ valid: true, errors: [] });
    expect(validator.validate(request, { name: "üretim" }).errors).toEqual([
      "(root) must have required property 'secret' (required)",
    ]);
  });

  it("asks a response for its readOnly properties but not for its writeOnly ones", () => {
    expect(validator.validate(response, { id: 1, created: "2026-11-28T10:00:00Z", name: "üretim" }).valid).toBe(true);
    expect(validator.validate(response, { name: "üretim" }).errors).toEqual([
      "(root) must have required property 'created' (required)",
      "(root) must have required property 'id' (required)",
    ]);
  });

  it("reads a component on its own as written: every required property", () => {
    expect(validator.validate("#/components/schemas/Label", { name: "üretim" }).valid).toBe(false);
  });
});
