#!/usr/bin/env tsx
import { generateArtefacts } from "./generate.js";
import { repoRoot } from "./specs.js";
import { staleArtefacts, writeArtefacts } from "./sync.js";

/** `pnpm generate` writes every artefact; `pnpm generate --check` fails when any committed one is stale. */
async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes("--check");
  const artefacts = await generateArtefacts();
  if (check) {
    const stale = await staleArtefacts(repoRoot, artefacts);
    for (const a of stale) console.error(`stale: ${a.path}`);
    if (stale.length > 0) {
      console.error(
        `${stale.length} generated file(s) are out of date with specs/. Run \`pnpm generate\` and commit the result.`,
      );
      return 1;
    }
    console.log(`generate --check: ${artefacts.length} generated files match specs/`);
    return 0;
  }
  const written = await writeArtefacts(repoRoot, artefacts);
  console.log(`generate: ${written.length} of ${artefacts.length} files updated`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
