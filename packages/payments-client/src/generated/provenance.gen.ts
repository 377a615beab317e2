// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 2.0.0, sha256 d52183df945f018907e137ad3e7c860be2ce06298a4426316e925f386a7633b5)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "2.0.0",
  "sha256": "d52183df945f018907e137ad3e7c860be2ce06298a4426316e925f386a7633b5"
} as const;
