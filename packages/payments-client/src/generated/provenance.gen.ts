// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 3.0.0, sha256 df4d1bbdec7937407b2e4a64b94a5996ee2a92aefa3d43364a87ead156d981c6)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "3.0.0",
  "sha256": "df4d1bbdec7937407b2e4a64b94a5996ee2a92aefa3d43364a87ead156d981c6"
} as const;
