import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { node24BinDir } from "@payspec/third-party";
import { afterAll, expect, it } from "vitest";
import { run } from "./processes.js";
import { userEnv, WORKSPACE } from "./scratch-project.js";

const clones: string[] = [];
afterAll(() => {
  for (const clone of clones) rmSync(clone, { recursive: true, force: true });
});

/**
 * The repository as a newcomer gets it, installed with pnpm 11 and the newest (11 and later read
 * build approvals only from `allowBuilds`, and 12 fails on a build script nobody approved), as well
 * as with the pinned 10 that every other suite uses.
 */
// pnpm 11 runs on Node 22.13 and later only (it needs node:sqlite): it installs under Node 24.
it.each([
  ["11 (on Node 24)", "pnpm@11", true],
  ["the newest", "pnpm@latest", false],
])(
  "installs the lockfile with pnpm %s: no unapproved build, no lockfile change",
  async (_, pnpm, onNode24) => {
    const clone = mkdtempSync(join(tmpdir(), "payspec-pnpm-"));
    clones.push(clone);
    const nodeDir = onNode24 ? await node24BinDir() : dirname(process.execPath);
    // git ls-files lists what a clone has; files deleted in the work tree but not yet committed are skipped.
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: WORKSPACE }).toString().split("\0").filter(Boolean);
    for (const file of tracked.filter((f) => existsSync(join(WORKSPACE, f)))) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(WORKSPACE, file), join(clone, file));
    }
    const installed = await run("npx", ["--yes", pnpm, "install", "--frozen-lockfile"], {
      cwd: clone,
      env: userEnv(nodeDir),
      timeoutMs: 600_000,
    });
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/ERR_PNPM|IGNORED_BUILDS/);
    expect(installed.code).toBe(0);
    const version = await run("npx", ["--yes", pnpm, "--version"], {
      cwd: clone,
      env: userEnv(nodeDir),
    });
    expect(Number(version.stdout.trim().split(".")[0])).toBeGreaterThanOrEqual(11);
    // esbuild's approved postinstall ran: tsx works in the fresh install.
    const tsx = await run(join(clone, "node_modules/.bin/tsx"), ["-e", "console.log('ran')"], {
      cwd: clone,
      env: userEnv(nodeDir),
    });
    expect(tsx.stdout).toContain("ran");
  },
  900_000,
);
