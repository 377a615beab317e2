import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileAtRef } from "./base-ref.js";
import { changeBumps, type MissingMajor, packagesMissingMajor, packagesOfSpec } from "./changeset-gate.js";
import type { SpecChange, SpecDiffer } from "./spec-change.js";

/** A spec the gate must read cannot be read or parsed: the user fixes the file (exit 2, never a pass). */
export class UnreadableSpec extends Error {}

export interface GateResult {
  readonly base: string;
  readonly changesBySpec: Map<string, SpecChange[]>;
  /** Packages that need a major changeset added by this change and have none. */
  readonly missingMajor: MissingMajor[];
  /** Changesets pending from before the base: not counted. */
  readonly ignoredChangesets: readonly string[];
}

/** Compares every spec with its version at `base` and checks the changesets added since then against the result. */
export async function runGate(cwd: string, base: string, differ: SpecDiffer): Promise<GateResult> {
  const scratch = await mkdtemp(join(tmpdir(), "payspec-spec-diff-"));
  const changesBySpec = new Map<string, SpecChange[]>();
  try {
    for (const spec of Object.keys(packagesOfSpec)) {
      const before = fileAtRef(cwd, base, spec);
      if (before === undefined) {
        changesBySpec.set(spec, []);
        continue;
      }
      const beforeFile = join(scratch, spec.replaceAll("/", "_"));
      await writeFile(beforeFile, before);
      try {
        changesBySpec.set(spec, await differ.compare(beforeFile, join(cwd, spec)));
      } catch (error) {
        // A file system error says its code (ENOENT, EACCES); a YAML error its message, with line and column.
        const failure = error as NodeJS.ErrnoException;
        const reason = failure.syscall ? failure.code : failure.message.split("\n")[0]?.replace(/:$/, "");
        throw new UnreadableSpec(
          `${spec} (in the work tree, or as it was at ${base}) cannot be read: ${reason}. Fix the file and run again.`,
        );
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const change = await changeBumps(cwd, base);
  return {
    base,
    changesBySpec,
    missingMajor: packagesMissingMajor(changesBySpec, change),
    ignoredChangesets: change.ignored,
  };
}
