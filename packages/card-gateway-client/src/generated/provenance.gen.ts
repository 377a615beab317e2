// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 29e9faca8858dddf8b6791bfa624983446475d63d784012d9cdc10d90d10ce5a)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "2.0.0",
  "sha256": "29e9faca8858dddf8b6791bfa624983446475d63d784012d9cdc10d90d10ce5a"
} as const;
