// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 2f0678e288cc3d5a9fbe0673c01fd8974b5aa4e44b0d3087ef6d7739a1a6190c)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "2.0.0",
  "sha256": "2f0678e288cc3d5a9fbe0673c01fd8974b5aa4e44b0d3087ef6d7739a1a6190c"
} as const;
