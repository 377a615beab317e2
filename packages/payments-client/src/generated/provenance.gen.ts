// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 3.0.0, sha256 85a667f1bc5373dc6610bf1ba99732f40e7b4da97c806047a8f419219c0c008b)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/payments-accounts.openapi.yaml",
  "version": "3.0.0",
  "sha256": "85a667f1bc5373dc6610bf1ba99732f40e7b4da97c806047a8f419219c0c008b"
} as const;
