import { schemaDisagreements, cardGatewaySpec as spec, specExamples } from "@payspec/specs";
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { routes } from "../src/index.js";

/**
 * The spec, read by ajv, is the reference. For every example of every operation and every boundary
 * case derived from it, the generated zod schema must give the same verdict: a format, bound, pattern
 * or enum lost in generation shows up here as a disagreement.
 */
const byOperation = new Map(Object.values(routes).map((r) => [r.operationId as string, r]));

function zodFor(operationId: string, part: string): ((value: unknown) => boolean) | undefined {
  const route = byOperation.get(operationId);
  if (part === "request" && route?.data) return (value) => (route.data as ZodType).safeParse({ body: value }).success;
  if (part === String(route?.successStatus) && route?.response)
    return (value) => (route.response as ZodType).safeParse(value).success;
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

  it.each(examples.map((e) => [e.name, e] as const))(
    "%s: every boundary case gets the spec's verdict",
    (_name, example) => {
      expect(
        schemaDisagreements(spec, example, zodFor(example.operationId, example.part) as (value: unknown) => boolean),
      ).toEqual([]);
    },
  );
});
