import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "./built-cli.js";

const PACKAGE = fileURLToPath(new URL("../..", import.meta.url));

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => statSync(join(dir, file)))
    .filter((stat) => stat.isFile())
    .reduce((latest, stat) => Math.max(latest, stat.mtimeMs), 0);
}

/**
 * Global setup: the tests spawn the built CLI, so it is built again (tsdown, a few seconds) when it is
 * missing or a file under `src/` or the package's manifest is newer. After `pnpm build` (as in
 * `pnpm check`) this only compares times.
 */
export default function buildCli(): void {
  const sources = Math.max(newest(join(PACKAGE, "src")), statSync(join(PACKAGE, "package.json")).mtimeMs);
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= sources) return;
  // tsdown is the workspace's (root) dev dependency: its package's bin, found as node finds it from here.
  const tsdown = join(createRequire(import.meta.url).resolve("tsdown/package.json"), "..", "dist", "run.mjs");
  execFileSync(process.execPath, [tsdown], {
    cwd: PACKAGE,
    // A build to run, as `pnpm start` makes one: the publishing checks (publint, attw) belong to `pnpm build`.
    env: { ...process.env, PAYSPEC_BUILD_TO_RUN: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}
