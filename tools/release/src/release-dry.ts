#!/usr/bin/env tsx
// What a release would publish, without publishing: the pending version plan, then every public
// package packed and checked by publint and arethetypeswrong (the packed artefact, not the folder).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

function run(command: string, args: readonly string[], cwd = root): void {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`release:dry: "${command} ${args.join(" ")}" failed; nothing is published until it passes.`);
    process.exit(result.status ?? 1);
  }
}

const publicPackages = [
  "specs",
  ...readdirSync(join(root, "packages")).map((p) => `packages/${p}`),
  ...readdirSync(join(root, "apps")).map((p) => `apps/${p}`),
]
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      private?: boolean;
    },
  }))
  .filter((p) => !p.manifest.private);

run("changeset", ["status", "--verbose"]);
run("pnpm", ["turbo", "run", "build", ...publicPackages.map((p) => `--filter=${p.manifest.name}`)]);
for (const { dir, manifest } of publicPackages) {
  console.log(`\n== ${manifest.name}@${manifest.version} (${dir})`);
  run("pnpm", ["pack", "--dry-run"], join(root, dir));
  run("publint", ["--strict", join(root, dir)]);
  const attwArgs = ["--pack", join(root, dir), "--profile", "node16", "--format", "table-flipped"];
  run(
    "attw",
    dir === "specs"
      ? [...attwArgs, "--exclude-entrypoints", "./payments-accounts.openapi.yaml", "./card-gateway.openapi.yaml"]
      : attwArgs,
  );
}
console.log(
  `\nrelease:dry: ${publicPackages.length} packages would be published: ${publicPackages.map((p) => `${p.manifest.name}@${p.manifest.version}`).join(", ")}`,
);
