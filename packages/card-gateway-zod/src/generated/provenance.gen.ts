// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 1.0.0, sha256 4c6e9f17da37041c99e4f8b933f8bdfbdad74f8bfcc4e367b1724925b7840c7b)
// regenerate with `pnpm generate`.

/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */
export const specProvenance = {
  "spec": "specs/card-gateway.openapi.yaml",
  "version": "1.0.0",
  "sha256": "4c6e9f17da37041c99e4f8b933f8bdfbdad74f8bfcc4e367b1724925b7840c7b"
} as const;
