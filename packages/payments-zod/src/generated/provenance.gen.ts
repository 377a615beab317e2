// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 cb3b909896104adf1521bf2fb36e0389142f4c1ad7fdafca39c4c4d72928dba5)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "cb3b909896104adf1521bf2fb36e0389142f4c1ad7fdafca39c4c4d72928dba5"
} as const;
