import type { Artefact } from "../artefact.js";
import { headerLines } from "../artefact.js";
import type { LoadedSpec } from "../load-spec.js";

/**
 * specs/bundled/<name>.openapi.json: one self-contained JSON document per spec, for the mock, the
 * verifier and outside tools. JSON has no comments, so the header is an `x-payspec-generated` field.
 */
export function bundledJson(spec: LoadedSpec): Artefact {
  const withHeader = { "x-payspec-generated": headerLines(spec.provenance).join(" "), ...spec.bundled };
  return {
    path: `specs/bundled/${spec.source.name}.openapi.json`,
    content: `${JSON.stringify(withHeader, null, 2)}\n`,
  };
}
