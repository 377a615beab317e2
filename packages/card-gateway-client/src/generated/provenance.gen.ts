// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 fe9d020bb1b46d9695be3c18a6a8ccb3958eb17ab0d5915365f1dfcdc47d77c8)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "2.0.0",
  "sha256": "fe9d020bb1b46d9695be3c18a6a8ccb3958eb17ab0d5915365f1dfcdc47d77c8"
} as const;
