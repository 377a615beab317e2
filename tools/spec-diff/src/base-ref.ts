import { execFileSync } from "node:child_process";

function git(cwd: string, ...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * What to compare against when no --base is given: on a branch, where it left main; on main, the
 * last release of the specs (a `@payspec/specs@x.y.z` tag). Undefined when neither exists.
 */
export function defaultBase(cwd: string): string | undefined {
  const branch = git(cwd, "rev-parse", "--abbrev-ref", "HEAD");
  if (branch && branch !== "main") {
    for (const main of ["main", "origin/main"]) {
      const base = git(cwd, "merge-base", "HEAD", main);
      if (base) return base;
    }
  }
  return git(cwd, "describe", "--tags", "--abbrev=0", "--match", "@payspec/specs@*");
}

/** The text of a file at a git ref, or undefined when it did not exist there. */
export function fileAtRef(cwd: string, ref: string, path: string): string | undefined {
  return git(cwd, "show", `${ref}:${path}`);
}
