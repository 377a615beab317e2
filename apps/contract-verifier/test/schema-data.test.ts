import { seededRandom } from "@payspec/server-kit";
import { describe, expect, it } from "vitest";
import { generateData, inlineSchema } from "../src/schema-data.js";

describe("generated data", () => {
  it("makes a required property that has no schema of its own, also in the smallest form (no made-up properties)", () => {
    // A "spec problem" was claimed for such a body: the smallest-form attempts never made `name`.
    const schema = {
      type: "object",
      required: ["name", "config"],
      properties: { config: { type: "object", properties: { mode: { type: "string" } } } },
    };
    for (let seed = 0; seed < 5; seed++) {
      const value = generateData(seededRandom(seed), inlineSchema({}, schema), false, { openObjects: false });
      expect(value).toHaveProperty("name");
      expect(value).toHaveProperty("config");
    }
  });

  it("gives such a property what additionalProperties allows, and none where nothing else is allowed", () => {
    const typed = inlineSchema({}, { type: "object", required: ["n"], additionalProperties: { type: "integer" } });
    expect(typed).toMatchObject({ properties: { n: { type: "integer" } } });
    const closed = inlineSchema({}, { type: "object", required: ["n"], additionalProperties: false });
    expect(closed).not.toHaveProperty("properties");
  });
});
