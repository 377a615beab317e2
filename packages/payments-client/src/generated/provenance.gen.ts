// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 f82fb9d067860199e18ef73b629b586910fc68471769ed5a4112efa185ef9228)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "f82fb9d067860199e18ef73b629b586910fc68471769ed5a4112efa185ef9228"
} as const;
