import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { run } from "./processes.js";
import { userEnv, WORKSPACE } from "./scratch-project.js";

const clone = mkdtempSync(join(tmpdir(), "payspec-pnpm-latest-"));
afterAll(() => rmSync(clone, { recursive: true, force: true }));

/**
 * The repository as a newcomer gets it, installed with the newest pnpm (12 and later read build
 * approvals only from `allowBuilds`, and fail on a build script nobody approved), as well as with the
 * pinned one that every other suite uses.
 */
it("installs the lockfile with the newest pnpm: no unapproved build, no lockfile change", async () => {
  // git ls-files lists what a clone has; files deleted in the work tree but not yet committed are skipped.
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: WORKSPACE }).toString().split("\0").filter(Boolean);
  for (const file of tracked.filter((f) => existsSync(join(WORKSPACE, f)))) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(WORKSPACE, file), join(clone, file));
  }
  const installed = await run("npx", ["--yes", "pnpm@latest", "install", "--frozen-lockfile"], {
    cwd: clone,
    env: userEnv(dirname(process.execPath)),
    timeoutMs: 600_000,
  });
  expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/ERR_PNPM|IGNORED_BUILDS/);
  expect(installed.code).toBe(0);
  const version = await run("npx", ["--yes", "pnpm@latest", "--version"], {
    cwd: clone,
    env: userEnv(dirname(process.execPath)),
  });
  expect(Number(version.stdout.trim().split(".")[0])).toBeGreaterThanOrEqual(11);
  // esbuild's approved postinstall ran: tsx works in the fresh install.
  const tsx = await run(join(clone, "node_modules/.bin/tsx"), ["-e", "console.log('ran')"], {
    cwd: clone,
    env: userEnv(dirname(process.execPath)),
  });
  expect(tsx.stdout).toContain("ran");
}, 900_000);
