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

/** Whether `ref` names a commit of the repository (a branch, tag or hash). */
export function isCommit(cwd: string, ref: string): boolean {
  return git(cwd, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`) !== undefined;
}

/**
 * What to compare against when no --base is given. On a branch: where it left main. On main: the commit
 * CI names in PAYSPEC_SPEC_DIFF_BASE (the one before the push), else the last release of the specs (a
 * `@payspec/specs@x.y.z` tag, or the newest commit that wrote specs/CHANGELOG.md), else the parent
 * commit. A repository with a single commit is the only one with nothing to compare; a shallow clone
 * is an error, never a pass.
 */
export function defaultBase(cwd: string): Base {
  const branch = git(cwd, "rev-parse", "--abbrev-ref", "HEAD");
  if (branch && branch !== "main" && branch !== "HEAD") {
    for (const main of ["main", "origin/main"]) {
      const base = git(cwd, "merge-base", "HEAD", main);
      if (base) return { ref: base, reason: `where ${branch} left ${main}` };
    }
  }
  const given = process.env.PAYSPEC_SPEC_DIFF_BASE;
  if (given && !/^0+$/.test(given)) {
    // What CI passes for a push: the commit before it (GitHub: github.event.before), so every commit of
    // a multi-commit push is judged together. All zeros is GitHub's "new branch": no such commit.
    if (git(cwd, "rev-parse", "--verify", "--quiet", `${given}^{commit}`)) {
      return { ref: given, reason: "PAYSPEC_SPEC_DIFF_BASE (the commit before this push)" };
    }
  }
  const tag = git(cwd, "describe", "--tags", "--abbrev=0", "--match", "@payspec/specs@*");
  if (tag) return { ref: tag, reason: `the last release of the specs (${tag})` };
  // A release (changeset version) writes the specs' changelog: the newest commit that touched it is the
  // last release, tagged or not, and everything since it is one change to judge.
  const release = git(cwd, "log", "-1", "--format=%H", "--", "specs/CHANGELOG.md");
  if (release) return { ref: release, reason: "the last release commit (the newest to write specs/CHANGELOG.md)" };
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
