#!/usr/bin/env tsx
import { fileURLToPath } from "node:url";
import { defaultBase } from "./base-ref.js";
import { OpticDiffer } from "./optic-differ.js";
import { runGate } from "./run-gate.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** `pnpm spec:diff [--base REF]`: 0 when every breaking change has its major changeset, 1 when not, 2 on bad input. */
async function main(argv: readonly string[]): Promise<number> {
  const i = argv.indexOf("--base");
  const cwd = process.env.PAYSPEC_REPO ?? repoRoot;
  const base = i >= 0 ? argv[i + 1] : defaultBase(cwd);
  if (i >= 0 && !base) {
    console.error("--base needs a git ref (a branch, tag or commit).");
    return 2;
  }
  if (!base) {
    console.log(
      "spec:diff: no base to compare with (on main with no @payspec/specs@* release tag yet); nothing to check.",
    );
    return 0;
  }
  const result = await runGate(cwd, base, new OpticDiffer());
  for (const [spec, changes] of result.changesBySpec) {
    const breaking = changes.filter((c) => c.severity === "breaking");
    console.log(`${spec} against ${base}: ${breaking.length} breaking, ${changes.length - breaking.length} safe`);
    for (const c of breaking) console.log(`  BREAKING ${c.where}: ${c.message} [${c.rule}]`);
    for (const c of changes.filter((x) => x.severity === "safe").slice(0, 20))
      console.log(`  safe     ${c.where}: ${c.message}`);
  }
  if (result.missingMajor.length > 0) {
    console.error(
      `\nBreaking spec changes need a major changeset for: ${result.missingMajor.join(", ")}.\nRun \`pnpm changeset\`, choose "major" for them, and describe what consumers must change.`,
    );
    return 1;
  }
  console.log("\nspec:diff: every breaking change has its major changeset.");
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
