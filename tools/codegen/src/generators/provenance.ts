import type { Artefact } from "../artefact.js";
import { tsHeader } from "../artefact.js";
import type { LoadedSpec } from "../load-spec.js";

/** `specProvenance`: which spec, version and hash a generated package was built from, at run time. */
export function provenance(spec: LoadedSpec, packageDir: string): Artefact {
  const { specPath, specVersion, sha256 } = spec.provenance;
  const body = [
    "/** The spec this package was generated from: its path in the payspec repository, info.version and sha256. */",
    `export const specProvenance = ${JSON.stringify({ spec: specPath, version: specVersion, sha256 }, null, 2)} as const;`,
    "",
  ].join("\n");
  return { path: `${packageDir}/src/generated/provenance.gen.ts`, content: `${tsHeader(spec.provenance)}\n${body}` };
}
