// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 d545745a28b9ee65394a70c10023b9beb45b2246ebcda72bfe65442470d9f0e2)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "3.0.0",
  "sha256": "d545745a28b9ee65394a70c10023b9beb45b2246ebcda72bfe65442470d9f0e2"
} as const;
