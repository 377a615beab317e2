import type { Artefact } from "./artefact.js";
import { assumptionsMarkdown } from "./generators/assumptions.js";
import { bundledJson } from "./generators/bundled-json.js";
import { loadSpec } from "./load-spec.js";
import { specSources } from "./specs.js";

/** Every artefact derived from specs/, computed in memory. */
export async function generateArtefacts(): Promise<Artefact[]> {
  const specs = await Promise.all(specSources.map(loadSpec));
  return [...specs.map(bundledJson), assumptionsMarkdown(specs)];
}
