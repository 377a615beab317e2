import type { Artefact } from "./artefact.js";
import { assumptionsMarkdown } from "./generators/assumptions.js";
import { bundledJson } from "./generators/bundled-json.js";
import { openapiTypes } from "./generators/openapi-types.js";
import { provenance } from "./generators/provenance.js";
import { reportColumns } from "./generators/report-columns.js";
import { routes } from "./generators/routes.js";
import { zodSchemas } from "./generators/zod-schemas.js";
import { type LoadedSpec, loadSpec } from "./load-spec.js";
import { specSources } from "./specs.js";

/** Which packages are generated from which spec. */
const targets = {
  "payments-accounts": { client: "packages/payments-client", zod: "packages/payments-zod" },
  "card-gateway": { client: "packages/card-gateway-client", zod: "packages/card-gateway-zod" },
} as const;

async function packageArtefacts(spec: LoadedSpec): Promise<Artefact[]> {
  const { client, zod } = targets[spec.source.name];
  const zodArtefact = await zodSchemas(spec, zod);
  const artefacts = [
    await openapiTypes(spec, client),
    zodArtefact,
    routes(spec, zod, zodArtefact.content),
    provenance(spec, client),
    provenance(spec, zod),
  ];
  if (spec.source.name === "card-gateway") artefacts.push(reportColumns(spec, zod));
  return artefacts;
}

/** Every artefact derived from specs/, computed in memory. */
export async function generateArtefacts(): Promise<Artefact[]> {
  const specs = await Promise.all(specSources.map(loadSpec));
  const perSpec = await Promise.all(specs.map(packageArtefacts));
  return [...specs.map(bundledJson), assumptionsMarkdown(specs), ...perSpec.flat()];
}
