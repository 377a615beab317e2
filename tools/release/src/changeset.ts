#!/usr/bin/env tsx
// `pnpm changeset …` is changesets itself; after `pnpm changeset version` it also moves each spec's
// info.version to its packages' new version and regenerates, so spec and packages never disagree.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { syncSpecVersions } from "./spec-versions.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const args = process.argv.slice(2);
const changeset = spawnSync("changeset", args, { cwd: root, stdio: "inherit", shell: false });
if (changeset.status !== 0) process.exit(changeset.status ?? 1);
if (args[0] === "version") {
  for (const s of await syncSpecVersions(root)) console.log(`${s.spec}: info.version ${s.from} -> ${s.to}`);
  const generate = spawnSync("pnpm", ["generate"], { cwd: root, stdio: "inherit" });
  process.exit(generate.status ?? 1);
}
