// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 7ef873e310c15e4514121bee04f6857eda78cbb0b40af31059c1b1143859acd1)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "7ef873e310c15e4514121bee04f6857eda78cbb0b40af31059c1b1143859acd1"
} as const;
