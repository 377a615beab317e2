import { boundaryCases } from "./boundary-cases.js";
import { type SpecExample, specExamples } from "./spec-examples.js";
import { createSpecValidator } from "./spec-validator.js";

export interface Disagreement {
  readonly label: string;
  /** The spec's verdict (ajv). */
  readonly spec: boolean;
  /** The other validator's verdict. */
  readonly other: boolean;
}

/**
 * Where another validator (a generated zod schema, say) judges differently from the spec, over an
 * example and every boundary case derived from it. An empty list means no format, bound, pattern or
 * enum was lost on the way from the spec to the other validator.
 */
export function schemaDisagreements(
  spec: object,
  example: SpecExample,
  accepts: (value: unknown) => boolean,
): Disagreement[] {
  const validator = createSpecValidator(spec);
  const cases = [
    { label: "the example itself", value: example.value },
    ...boundaryCases(spec, example.schemaPointer, example.value),
  ];
  return cases
    .map((c) => ({
      label: c.label,
      spec: validator.validate(example.schemaPointer, c.value).valid,
      other: accepts(c.value),
    }))
    .filter((v) => v.spec !== v.other);
}

interface SafeParser {
  safeParse(value: unknown): { success: boolean };
}

/** A generated route table entry, as the zod packages emit them. */
export interface RouteValidators {
  readonly operationId: string;
  readonly successStatus: number;
  readonly data?: SafeParser | undefined;
  readonly response?: SafeParser | undefined;
}

/**
 * Pairs every JSON example of the spec with the generated validator that should judge it: the
 * request schema (`{ body }`) for request examples, the response schema for success examples.
 * `uncovered` lists operations with a validator but no example to check it against.
 */
export function routeAgreementCases(spec: object, routes: Readonly<Record<string, RouteValidators>>) {
  const byOperation = new Map(Object.values(routes).map((r) => [r.operationId, r]));
  const acceptsFor = (example: SpecExample): ((value: unknown) => boolean) | undefined => {
    const route = byOperation.get(example.operationId);
    if (example.part === "request" && route?.data)
      return (value) => (route.data as SafeParser).safeParse({ body: value }).success;
    if (example.part === String(route?.successStatus) && route?.response)
      return (value) => (route.response as SafeParser).safeParse(value).success;
    return undefined;
  };
  const cases = specExamples(spec).flatMap((example) => {
    const accepts = example.mediaType?.includes("json") ? acceptsFor(example) : undefined;
    return accepts ? [{ example, accepts }] : [];
  });
  const covered = new Set(cases.map((c) => `${c.example.operationId} ${c.example.part}`));
  const uncovered = Object.values(routes)
    .filter((r) => r.response && !covered.has(`${r.operationId} ${r.successStatus}`))
    .map((r) => r.operationId);
  return { cases, uncovered };
}
