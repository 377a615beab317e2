#!/usr/bin/env tsx
// `pnpm changeset …` is changesets itself, with two additions:
// - `--bump major|minor|patch --spec <name> --message "…"` writes the changeset without a terminal
//   (CI, scripts), for every package generated from that spec;
// - after `pnpm changeset version` it moves each spec's info.version to its packages' new version and
//   regenerates, so spec and packages never disagree.
import { spawnSync } from "node:child_process";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Bump, ChangesetUsageError, SPECS, writeChangeset } from "./changeset-file.js";
import { pendingChangesetProblems } from "./pending-changesets.js";
import { syncSpecVersions } from "./spec-versions.js";

const root = process.env.PAYSPEC_REPO ?? fileURLToPath(new URL("../../../", import.meta.url));
const argv = process.argv.slice(2);
const args = argv[0] === "--" ? argv.slice(1) : argv;
const USAGE = `Without a terminal, say what to record:
  pnpm changeset --bump major|minor|patch --spec ${SPECS.join("|")} --message "What consumers must change"`;

async function main(): Promise<number> {
  if (args.some((a) => ["--bump", "--spec", "--message"].includes(a.split("=")[0] as string))) {
    try {
      const { values } = parseArgs({
        args,
        options: { bump: { type: "string" }, spec: { type: "string" }, message: { type: "string" } },
      });
      if (!values.bump || !values.spec || !values.message)
        throw new ChangesetUsageError("--bump, --spec and --message go together.");
      const file = await writeChangeset(root, {
        bump: values.bump as Bump,
        spec: values.spec,
        message: values.message,
      });
      console.log(`Wrote ${relative(root, file)}.`);
      return 0;
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      if (failure.syscall) {
        console.error(
          `pnpm changeset cannot write ${failure.path ?? ".changeset/"} (${failure.code}): check the folder's permissions.`,
        );
        return 2;
      }
      if (!(error instanceof ChangesetUsageError) && !failure.code?.startsWith("ERR_PARSE_ARGS")) throw error;
      console.error(`pnpm changeset: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
  }
  if (args.length === 0 && !process.stdin.isTTY) {
    console.error(`pnpm changeset asks its questions in a terminal, and there is none here.\n${USAGE}`);
    return 2;
  }
  // changesets reads every pending file first, and answers a broken one with a stack trace.
  const problems = pendingChangesetProblems(root);
  if (problems.length > 0) {
    console.error(`pnpm changeset cannot read the pending changesets:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    return 2;
  }
  const changeset = spawnSync("changeset", args, { cwd: root, stdio: "inherit", shell: false });
  if (changeset.status !== 0) return changeset.status ?? 1;
  if (args[0] === "version") {
    for (const s of await syncSpecVersions(root)) console.log(`${s.spec}: info.version ${s.from} -> ${s.to}`);
    const generate = spawnSync("pnpm", ["generate"], { cwd: root, stdio: "inherit" });
    return generate.status ?? 1;
  }
  return 0;
}

process.exitCode = await main();
