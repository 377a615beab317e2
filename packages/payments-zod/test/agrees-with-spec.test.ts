import { boundaryCases, createSpecValidator, paymentsAccountsSpec as spec, specExamples } from "@payspec/specs";
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { routes } from "../src/index.js";

/**
 * The spec, read by ajv, is the reference. For every example of every operation and every boundary
 * case derived from it, the generated zod schema must give the same verdict: a format, bound, pattern
 * or enum lost in generation shows up here as a disagreement.
 */
const validator = createSpecValidator(spec);
const byOperation = new Map(Object.values(routes).map((r) => [r.operationId as string, r]));

function zodFor(operationId: string, part: string): ((value: unknown) => boolean) | undefined {
  const route = byOperation.get(operationId);
  if (!route) return undefined;
  if (part === "request" && route.data) {
    const data = route.data as ZodType;
    return (value) => data.safeParse({ body: value }).success;
  }
  if (part === String(route.successStatus) && route.response) {
    const response = route.response as ZodType;
    return (value) => response.safeParse(value).success;
  }
  return undefined;
}

const examples = specExamples(spec).filter((e) => e.mediaType?.includes("json") && zodFor(e.operationId, e.part));

describe("generated zod schemas agree with the spec", () => {
  it("covers every JSON request body and success response", () => {
    // The xlsx report has no JSON body to compare.
    const binaryResponses = new Set<string>(["getDailyTransactionsReport"]);
    const covered = new Set(examples.map((e) => `${e.operationId} ${e.part}`));
    for (const route of Object.values(routes)) {
      if (route.response && !binaryResponses.has(route.operationId)) {
        expect(covered.has(`${route.operationId} ${route.successStatus}`), route.operationId).toBe(true);
      }
    }
  });

  it.each(examples.map((e) => [e.name, e] as const))("%s: every boundary case gets ajv's verdict", (_name, example) => {
    const zodAccepts = zodFor(example.operationId, example.part);
    if (!zodAccepts) throw new Error(`no zod schema for ${example.name}`);
    const cases = [
      { label: "the example itself", value: example.value },
      ...boundaryCases(spec, example.schemaPointer, example.value),
    ];
    const disagreements = cases
      .map((c) => ({
        label: c.label,
        ajv: validator.validate(example.schemaPointer, c.value).valid,
        zod: zodAccepts(c.value),
      }))
      .filter((v) => v.ajv !== v.zod);
    expect(disagreements).toEqual([]);
    expect(cases.length).toBeGreaterThan(3);
  });
});
