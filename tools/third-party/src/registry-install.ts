import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where installed third-party software is kept between runs on one machine (outside the repository). */
export const CACHE_DIR = process.env.PAYSPEC_THIRD_PARTY_CACHE ?? join(tmpdir(), "payspec-third-party");

/**
 * Installs exact `packages` (`name@version`) from the npm registry into a folder of their own under
 * the cache, once: a later call with the same list returns at once. npm, not pnpm: these are not our
 * workspace's dependencies, and their install scripts stay off (npm's default since 11).
 */
export async function installFromRegistry(folder: string, packages: readonly string[]): Promise<string> {
  const dir = join(CACHE_DIR, folder);
  const marker = join(dir, "payspec-installed.json");
  const wanted = JSON.stringify([...packages].sort());
  const installed = async () => existsSync(marker) && (await readFile(marker, "utf8")) === wanted;
  if (await installed()) return dir;
  // Installed beside it, then moved into place at once: several test suites ask for the same folder at
  // the same time, and one ran Node 24 while another's npm was still writing it (ETXTBSY).
  await mkdir(CACHE_DIR, { recursive: true });
  const staging = await mkdtemp(join(CACHE_DIR, `${folder}.installing-`));
  try {
    // A package.json of its own keeps npm from walking up into another project.
    await writeFile(join(staging, "package.json"), `${JSON.stringify({ private: true, name: `payspec-${folder}` })}\n`);
    await new Promise<void>((resolve, reject) => {
      execFile(
        "npm",
        ["install", "--no-audit", "--no-fund", "--no-save", "--ignore-scripts", "--loglevel=error", ...packages],
        { cwd: staging, env: plainEnv(), timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
        (error, _stdout, stderr) =>
          error
            ? reject(new Error(`npm could not install ${packages.join(", ")} from the registry: ${stderr.trim()}`))
            : resolve(),
      );
    });
    await writeFile(join(staging, "payspec-installed.json"), wanted);
    if (await installed()) return dir; // another suite finished first: its copy serves
    await rm(dir, { recursive: true, force: true });
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another suite moved its copy in between the two lines above.
      if (!(await installed())) throw error;
    }
    return dir;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * This process's environment as a user's shell has it: without the npm_*, pnpm, vitest and turbo
 * variables a workspace script runs with (they would point npm back at the workspace).
 */
export function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|PNPM_|INIT_CWD$|VITEST|NODE_OPTIONS$|TURBO_)/i.test(name)) env[name] = value;
  }
  return env;
}
