#!/usr/bin/env tsx
// `pnpm release:version`: what the "Version Packages" pull request does. The pending changesets become
// versions and CHANGELOG.md entries (and are consumed), each spec's info.version follows its generated
// packages, the compose stack and the Kubernetes base name the released images' tags, and everything
// derived from the specs is regenerated (the spec's hash is in every file).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { syncImageTags } from "./image-tags.js";
import { syncSpecVersions } from "./spec-versions.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

function run(command: string, args: readonly string[]): void {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(
      `release:version: "${command} ${args.join(" ")}" failed; fix that and run pnpm release:version again.`,
    );
    process.exit(2);
  }
}

run("changeset", ["version"]);
for (const { spec, from, to } of await syncSpecVersions(root)) console.log(`${spec}: info.version ${from} -> ${to}`);
for (const { file, image, to } of await syncImageTags(root)) console.log(`${file}: ${image} -> ${to}`);
run("pnpm", ["generate"]);
console.log(
  "\nrelease:version: versions, changelogs and spec versions written; review and commit them as one release commit.",
);
