import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { plainEnv } from "@payspec/third-party";
import { run } from "./processes.js";

export const WORKSPACE = fileURLToPath(new URL("../../../", import.meta.url));

/** Every package a user can install, by folder. */
export const PUBLIC_PACKAGES = [
  "specs",
  "packages/payments-zod",
  "packages/card-gateway-zod",
  "packages/client-core",
  "packages/payments-client",
  "packages/card-gateway-client",
  "packages/server-kit",
  "apps/sandbox",
  "apps/mock",
  "apps/contract-verifier",
] as const;

/**
 * The environment of a user's shell: this run's PATH with `nodeDir` first, and none of the npm_*
 * and pnpm variables the workspace's own scripts run with (they would point npm back at the
 * workspace).
 */
export function userEnv(nodeDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...plainEnv(), PATH: `${nodeDir}:${process.env.PATH ?? ""}`, CI: "true", ...extra };
}

async function workspaceVersion(pkg: string, dependency: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(WORKSPACE, pkg, "package.json"), "utf8"));
  return manifest.devDependencies?.[dependency] ?? manifest.dependencies?.[dependency];
}

export interface ScratchProject {
  readonly dir: string;
  /** What `npm install` printed. */
  readonly installLog: string;
}

/**
 * Packs every public package with `pnpm pack` (workspace: ranges become versions) and installs the
 * tarballs with plain `npm install` into a new npm project in the system's temporary directory, far
 * from the workspace, with the examples copied in.
 */
export async function createScratchProject(nodeDir: string): Promise<ScratchProject> {
  const dir = await mkdtemp(join(tmpdir(), "payspec-consumer-"));
  const tarballs = join(dir, "tarballs");
  await mkdir(tarballs);
  const dependencies: Record<string, string> = {};
  for (const pkg of PUBLIC_PACKAGES) {
    const packed = await run("pnpm", ["pack", "--pack-destination", tarballs], {
      cwd: join(WORKSPACE, pkg),
      env: process.env,
    });
    if (packed.code !== 0) throw new Error(`pnpm pack failed in ${pkg}:\n${packed.stderr}`);
    const manifest = JSON.parse(await readFile(join(WORKSPACE, pkg, "package.json"), "utf8"));
    const expected = `${manifest.name.replace("@", "").replace("/", "-")}-${manifest.version}.tgz`;
    const file = (await readdir(tarballs)).find((f) => f === expected);
    if (!file) throw new Error(`no tarball for ${manifest.name} in ${tarballs}`);
    dependencies[manifest.name] = `file:${resolve(tarballs, file)}`;
  }
  const manifest = {
    name: "payspec-consumer",
    private: true,
    type: "module",
    dependencies,
    devDependencies: {
      "@types/node": await workspaceVersion("tools/consumer-test", "@types/node"),
      typescript: await workspaceVersion("tools/consumer-test", "typescript"),
      vitest: await workspaceVersion("tools/consumer-test", "vitest"),
    },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noUncheckedIndexedAccess: true,
        types: ["node"],
        outDir: "dist",
        rootDir: "examples",
        skipLibCheck: false,
      },
      include: ["examples/*.ts"],
    }),
  );
  // The examples as a user has them: the files, not the workspace package that runs them in a clone.
  await cp(join(WORKSPACE, "examples"), join(dir, "examples"), {
    recursive: true,
    filter: (source) => !/(package\.json|run-examples\.ts|node_modules|tsconfig\.json)$/.test(source),
  });
  const installed = await run("npm", ["install", "--no-audit", "--no-fund"], {
    cwd: dir,
    env: userEnv(nodeDir),
    timeoutMs: 600_000,
  });
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stdout}\n${installed.stderr}`);
  return { dir, installLog: `${installed.stdout}\n${installed.stderr}` };
}
