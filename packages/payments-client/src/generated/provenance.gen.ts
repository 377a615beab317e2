// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 1.0.0, sha256 267e8f1edfa603d0b733b3bb71cc6e8b755a1de0952a389ff06cbe14317e50e7)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "1.0.0",
  "sha256": "267e8f1edfa603d0b733b3bb71cc6e8b755a1de0952a389ff06cbe14317e50e7"
} as const;
