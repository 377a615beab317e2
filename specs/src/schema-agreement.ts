import { boundaryCases } from "./boundary-cases.js";
import type { SpecExample } from "./spec-examples.js";
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
