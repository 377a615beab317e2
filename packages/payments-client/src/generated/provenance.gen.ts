// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 02b4f90ac6db0e59fff5e13ec80824e771df34649b55f7356065e5fa2d9d977b)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "02b4f90ac6db0e59fff5e13ec80824e771df34649b55f7356065e5fa2d9d977b"
} as const;
