// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 2.0.0, sha256 cda6461b53a9780056403ec31b025960eff78b8a384d5473a18f6eb76bbf0cf6)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "2.0.0",
  "sha256": "cda6461b53a9780056403ec31b025960eff78b8a384d5473a18f6eb76bbf0cf6"
} as const;
