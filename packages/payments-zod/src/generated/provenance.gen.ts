// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 1.0.0, sha256 c85765154dded09b1b3d74c7f66bcf5c86640b1a6e0e11db2faa31a802782596)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "1.0.0",
  "sha256": "c85765154dded09b1b3d74c7f66bcf5c86640b1a6e0e11db2faa31a802782596"
} as const;
