import openapiTS, { astToString } from "openapi-typescript";
import type { Artefact } from "../artefact.js";
import { tsHeader } from "../artefact.js";
import { generatorInput } from "../generator-input.js";
import type { LoadedSpec } from "../load-spec.js";

/** openapi-typescript `paths`/`components` types, the typing behind each openapi-fetch client. */
export async function openapiTypes(spec: LoadedSpec, packageDir: string): Promise<Artefact> {
  // openapi-typescript mutates its input while resolving; give it a private copy.
  const ast = await openapiTS(structuredClone(generatorInput(spec.bundled)) as never, {
    alphabetize: false,
    exportType: true,
    // A field with a default is still optional for the sender (installment, transactionType).
    defaultNonNullable: false,
  });
  return {
    path: `${packageDir}/src/generated/openapi.gen.ts`,
    content: `${tsHeader(spec.provenance)}\n${astToString(ast)}`,
  };
}
