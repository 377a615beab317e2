// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 a69fe0d6f8ee500e0f1006c2d05a09b07f541cbaa12559ef1f8eec122f3eab0e)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "a69fe0d6f8ee500e0f1006c2d05a09b07f541cbaa12559ef1f8eec122f3eab0e"
} as const;
