import { join } from "node:path";
import { bundle, createConfig } from "@redocly/openapi-core";
import type { Provenance } from "./artefact.js";
import { sha256 } from "./artefact.js";
import { repoRoot, type SpecSource } from "./specs.js";

export type OpenApiDocument = Record<string, unknown> & { info: { version: string; title: string } };

export interface LoadedSpec {
  readonly source: SpecSource;
  /** The spec with every external $ref pulled in; internal refs stay refs. */
  readonly bundled: OpenApiDocument;
  readonly provenance: Provenance;
}

/** Bundles a spec (split files allowed) and fingerprints the result, so any referenced file counts. */
export async function loadSpec(source: SpecSource): Promise<LoadedSpec> {
  const config = await createConfig({});
  const result = await bundle({ ref: join(repoRoot, source.path), config, dereference: false });
  const bundled = result.bundle.parsed as OpenApiDocument;
  const provenance: Provenance = {
    specPath: source.path,
    specVersion: bundled.info.version,
    sha256: sha256(JSON.stringify(bundled)),
  };
  return { source, bundled, provenance };
}
