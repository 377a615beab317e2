// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 f07c548ab5264e232819da7d2b72d9514d4182af5a5319adc93e9a2a39df85de)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "2.0.0",
  "sha256": "f07c548ab5264e232819da7d2b72d9514d4182af5a5319adc93e9a2a39df85de"
} as const;
