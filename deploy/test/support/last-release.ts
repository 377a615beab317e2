import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPOSITORY } from "./images-setup.js";
import { ran } from "./podman.js";

export interface Release {
  readonly version: string;
  readonly commit: string;
  /** How it was found: its git tag, or the commit that last set the package's version. */
  readonly foundBy: string;
  /** The built `payspec-sandbox` of that release. */
  readonly cli: string;
}

const git = async (args: readonly string[]) => {
  const result = await ran("git", args, { cwd: REPOSITORY, env: process.env });
  if (result.code !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
};

/**
 * The sandbox's last release: its newest `@payspec/sandbox@x.y.z` tag; in a clone made without tags,
 * the commit that last set apps/sandbox/package.json's version (the release commit writes it).
 */
async function lastRelease(): Promise<{ version: string; commit: string; foundBy: string }> {
  const tags = (await git(["tag", "--list", "@payspec/sandbox@*", "--sort=-v:refname"])).split("\n").filter(Boolean);
  const tag = tags[0];
  if (tag)
    return {
      version: tag.split("@").pop() as string,
      commit: await git(["rev-list", "-n", "1", tag]),
      foundBy: `tag ${tag}`,
    };
  const commit = await git(["log", "-1", "--format=%H", "-G", '"version":', "--", "apps/sandbox/package.json"]);
  const version = JSON.parse(await git(["show", `${commit}:apps/sandbox/package.json`])).version as string;
  return {
    version,
    commit,
    foundBy: `commit ${commit.slice(0, 12)}, which set version ${version} (no tags in this clone)`,
  };
}

/** pnpm as the README runs it, in `cwd`, failing with its own words. */
async function pnpm(cwd: string, args: readonly string[]): Promise<void> {
  const result = await ran("npx", ["--yes", "pnpm@10.34.9", ...args], {
    cwd,
    env: {
      ...process.env,
      CI: "true",
      npm_config_loglevel: "error",
      PAYSPEC_BUILD_TO_RUN: "1",
      TURBO_TELEMETRY_DISABLED: "1",
    },
    timeoutMs: 900_000,
  });
  if (result.code !== 0)
    throw new Error(
      `pnpm ${args.join(" ")} in the last release's tree failed (exit ${result.code}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
    );
}

/**
 * The last release, built from its commit as a team would (the tree at its tag, installed from its own
 * lockfile, its sandbox built): once per machine and commit, kept in the temporary directory.
 */
export async function buildLastRelease(): Promise<Release> {
  const release = await lastRelease();
  const dir = join(tmpdir(), "payspec-releases", release.commit);
  const cli = join(dir, "apps", "sandbox", "dist", "cli.mjs");
  const marker = join(dir, ".payspec-built");
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = await ran("sh", ["-c", `git archive ${release.commit} | tar -x -C "${dir}"`], {
      cwd: REPOSITORY,
      env: process.env,
    });
    if (archive.code !== 0) throw new Error(`git archive of ${release.commit} failed: ${archive.stderr}`);
    await pnpm(dir, ["install", "--frozen-lockfile", "--prefer-offline"]);
    await pnpm(dir, ["turbo", "run", "build", "--filter=@payspec/sandbox...", "--output-logs=errors-only"]);
    if (!existsSync(cli)) throw new Error(`The last release's build made no ${cli}.`);
    writeFileSync(marker, `${release.version}\n`);
  }
  return { ...release, cli };
}
