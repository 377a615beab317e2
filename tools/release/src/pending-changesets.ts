import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folders pnpm-workspace.yaml lists, one package each or one level of packages. */
const PACKAGE_FOLDERS = ["specs", "examples"];
const PACKAGE_PARENTS = ["packages", "apps", "tools"];
const LEVELS = new Set(["major", "minor", "patch", "none"]);

function workspacePackages(root: string): Set<string> {
  const dirs = [
    ...PACKAGE_FOLDERS.map((d) => join(root, d)),
    ...PACKAGE_PARENTS.flatMap((parent) =>
      existsSync(join(root, parent))
        ? readdirSync(join(root, parent), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => join(root, parent, e.name))
        : [],
    ),
  ];
  const names = new Set<string>();
  for (const dir of dirs) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) names.add((JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name);
  }
  return names;
}

/**
 * What is wrong with the pending changesets, one sentence each, naming the file: changesets' own CLI
 * answers the same mistakes with a stack trace. Empty when every file is one it can read.
 */
export function pendingChangesetProblems(root: string): string[] {
  const folder = join(root, ".changeset");
  if (!existsSync(folder)) return [];
  const packages = workspacePackages(root);
  const problems: string[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()) {
    const where = `.changeset/${file}`;
    let text: string;
    try {
      text = readFileSync(join(folder, file), "utf8");
    } catch (error) {
      problems.push(
        `${where} cannot be read (${(error as NodeJS.ErrnoException).code}): fix its permissions or delete it.`,
      );
      continue;
    }
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text.trimStart());
    if (!front) {
      problems.push(`${where} does not start with its packages between "---" lines: fix it or delete it.`);
      continue;
    }
    for (const line of (front[1] ?? "").split(/\r?\n/).filter((l) => l.trim())) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(\S+)\s*$/.exec(line);
      if (!entry) problems.push(`${where} has a line that is not "package": level (${line.trim().slice(0, 60)}).`);
      else if (!packages.has(entry[1] as string))
        problems.push(
          `${where} names ${entry[1]}, which is not a package of this workspace: fix the name or delete the file.`,
        );
      else if (!LEVELS.has(entry[2] as string))
        problems.push(`${where} gives ${entry[1]} the level "${entry[2]}": use major, minor or patch.`);
    }
  }
  return problems;
}
