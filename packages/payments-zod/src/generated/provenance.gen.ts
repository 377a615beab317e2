// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 16b7df72428ff8fd97c819e0b5c769b53df7440aa8e9b29585d6ee345739e8ca)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "16b7df72428ff8fd97c819e0b5c769b53df7440aa8e9b29585d6ee345739e8ca"
} as const;
