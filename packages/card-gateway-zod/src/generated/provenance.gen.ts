// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 a2868d6e0e30fcddcd8e88add72828af7e2dd6171048f251ed85f99f8a8421e8)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "3.0.0",
  "sha256": "a2868d6e0e30fcddcd8e88add72828af7e2dd6171048f251ed85f99f8a8421e8"
} as const;
