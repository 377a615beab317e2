import { routeAgreementCases, schemaDisagreements, cardGatewaySpec as spec } from "@payspec/specs";
import { describe, expect, it } from "vitest";
import { routes } from "../src/index.js";

/**
 * The spec, read by ajv, is the reference. For every example of every operation and every boundary
 * case derived from it, the generated zod schema must give the same verdict: a format, bound, pattern
 * or enum lost in generation shows up here as a disagreement.
 */
const { cases, uncovered } = routeAgreementCases(spec, routes);

describe("generated zod schemas agree with the spec", () => {
  it("checks every JSON request body and success response", () => {
    // The xlsx report has no JSON body to compare.
    expect(uncovered).toEqual(["getDailyTransactionsReport"]);
  });

  it.each(cases.map((c) => [c.example.name, c] as const))(
    "%s: every boundary case gets the spec's verdict",
    (_name, c) => {
      expect(schemaDisagreements(spec, c.example, c.accepts)).toEqual([]);
    },
  );
});
