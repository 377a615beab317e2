import { execFileSync } from "node:child_process";

function git(cwd: string, ...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/** What the gate compares with, and why; `ref` is undefined only when there is nothing to compare. */
export interface Base {
  readonly ref: string | undefined;
  readonly reason: string;
  /** True when the base cannot be found although it should exist (a shallow clone): the gate must not pass. */
  readonly missingHistory?: boolean;
}

/**
 * What to compare against when no --base is given. On a branch: where it left main. On main: the last
 * release of the specs (a `@payspec/specs@x.y.z` tag), else the parent commit. A repository with a
 * single commit is the only one with nothing to compare; a shallow clone is an error, never a pass.
 */
export function defaultBase(cwd: string): Base {
  const branch = git(cwd, "rev-parse", "--abbrev-ref", "HEAD");
  if (branch && branch !== "main" && branch !== "HEAD") {
    for (const main of ["main", "origin/main"]) {
      const base = git(cwd, "merge-base", "HEAD", main);
      if (base) return { ref: base, reason: `where ${branch} left ${main}` };
    }
  }
  const tag = git(cwd, "describe", "--tags", "--abbrev=0", "--match", "@payspec/specs@*");
  if (tag) return { ref: tag, reason: `the last release of the specs (${tag})` };
  const parent = git(cwd, "rev-parse", "--verify", "--quiet", "HEAD~1");
  if (parent) return { ref: parent, reason: "the parent commit (no release tag yet)" };
  if (git(cwd, "rev-parse", "--is-shallow-repository") === "true") {
    return {
      ref: undefined,
      reason: "this is a shallow clone, so the base is not here; fetch the history (actions/checkout: fetch-depth: 0)",
      missingHistory: true,
    };
  }
  return { ref: undefined, reason: "the repository has a single commit" };
}

/** The text of a file at a git ref, or undefined when it did not exist there. */
export function fileAtRef(cwd: string, ref: string, path: string): string | undefined {
  return git(cwd, "show", `${ref}:${path}`);
}
