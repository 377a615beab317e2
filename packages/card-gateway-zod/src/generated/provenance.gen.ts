// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 f885c07b5aceb6bd0422dfc20a3565e1ea1e56a6a4fe9f1dd71ea997be1eb021)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "3.0.0",
  "sha256": "f885c07b5aceb6bd0422dfc20a3565e1ea1e56a6a4fe9f1dd71ea997be1eb021"
} as const;
