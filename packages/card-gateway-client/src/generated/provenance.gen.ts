// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 1.0.0, sha256 5945a4870e0319ac46549df14d94fd298e127233d73cf1c67e0c8372c4f711f8)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "1.0.0",
  "sha256": "5945a4870e0319ac46549df14d94fd298e127233d73cf1c67e0c8372c4f711f8"
} as const;
