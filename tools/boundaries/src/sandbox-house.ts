import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The sandbox's house drawn from its code: each feature folder of `apps/sandbox/src` is a room on the
 * floor above the highest room it imports (the infrastructure is the ground floor, the app the roof),
 * with what it holds (modules, its own tests, its migrations) and whom it leans on. The README shows
 * this drawing; a test fails when the code and the drawing part.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCE = "apps/sandbox/src";
const depcruise = fileURLToPath(
  new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url),
);
const START = "<!-- house:start (drawn by `pnpm house`) -->";
const END = "<!-- house:end -->";
export const HOUSE_README = join(ROOT, "apps/sandbox/README.md");

interface Cruised {
  readonly modules: readonly {
    readonly source: string;
    readonly dependencies: readonly { readonly resolved: string }[];
  }[];
}

/** Which feature folder a path is in, if any. */
function folderOf(path: string): string | undefined {
  if (!path.startsWith(`${SOURCE}/`)) return undefined;
  const [folder, rest] = path.slice(SOURCE.length + 1).split("/");
  // A file right in src/ (cli.ts, index.ts) is the package's entrance, not a room.
  return rest === undefined ? undefined : folder;
}

/** The feature → feature imports of the sandbox's code (tests left out), as dependency-cruiser reads them. */
async function featureImports(): Promise<Map<string, Set<string>>> {
  const json = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [depcruise, "--config", ".dependency-cruiser.cjs", "--output-type", "json", "--exclude", "/test/", SOURCE],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`dependency-cruiser failed: ${stderr}`)) : resolve(stdout)),
    ),
  );
  const imports = new Map<string, Set<string>>();
  for (const module of (JSON.parse(json) as Cruised).modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    const targets = imports.get(from) ?? new Set<string>();
    imports.set(from, targets);
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (to && to !== from) targets.add(to);
    }
  }
  return imports;
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const path = prefix ? `${prefix}/${name}` : name;
    return statSync(join(dir, path)).isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/**
 * What a room holds, wherever in its folder: its modules, its tests (in any `test/` folder, the room's
 * or one of its own rooms'), its migrations, and the rooms inside it (payments' creation, listing, …).
 */
function contents(folder: string): string {
  const files = filesUnder(join(ROOT, SOURCE, folder));
  const inTests = (path: string) => path.split("/").includes("test");
  const modules = files.filter((path) => path.endsWith(".ts") && !inTests(path)).length;
  const tests = files.filter((path) => path.endsWith(".test.ts") && inTests(path)).length;
  const migrations = files.filter((path) => path.startsWith("migrations/") && path.endsWith(".sql")).length;
  const rooms = new Set(
    files
      .filter((path) => path.endsWith(".ts") && !inTests(path) && path.includes("/"))
      .map((path) => path.split("/")[0]),
  ).size;
  const some = (n: number, what: string) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);
  return [
    some(modules, "module") + (rooms > 0 ? ` in ${some(rooms + 1, "room")}` : ""),
    ...(tests > 0 ? [some(tests, "test file")] : []),
    ...(migrations > 0 ? [some(migrations, "migration")] : []),
  ].join(", ");
}

/** The drawing: the roof first, one line per room, then the count of what crosses features. */
export async function drawHouse(): Promise<string> {
  const imports = await featureImports();
  const floors = new Map<string, number>([["infrastructure", 0]]);
  const floorOf = (folder: string, seen: readonly string[] = []): number => {
    const known = floors.get(folder);
    if (known !== undefined) return known;
    if (seen.includes(folder)) throw new Error(`An import cycle through ${[...seen, folder].join(" → ")}`);
    const below = [...(imports.get(folder) ?? [])].map((to) => floorOf(to, [...seen, folder]));
    const floor = 1 + Math.max(0, ...below);
    floors.set(folder, floor);
    return floor;
  };
  for (const folder of imports.keys()) floorOf(folder);
  const top = Math.max(...floors.values());
  const lines: string[] = [];
  for (let floor = top; floor >= 0; floor--) {
    const rooms = [...floors]
      .filter(([, f]) => f === floor)
      .map(([folder]) => folder)
      .sort();
    for (const [i, folder] of rooms.entries()) {
      const label = i > 0 ? "" : floor === 0 ? "ground" : `floor ${floor}`;
      const leansOn = [...(imports.get(folder) ?? [])].filter((to) => to !== "infrastructure").sort();
      const arrows = folder === "app" ? "every feature" : leansOn.length > 0 ? leansOn.join(", ") : "";
      lines.push(
        `${label.padEnd(9)}${folder.padEnd(19)}${contents(folder).padEnd(58)}${arrows ? `→ ${arrows}` : ""}`.trimEnd(),
      );
    }
  }
  const crossing = filesUnder(join(ROOT, "apps/sandbox/test")).filter((path) => path.endsWith(".test.ts")).length;
  const arrowsFrom = (folder: string) =>
    [...(imports.get(folder) ?? [])].filter((to) => to !== "infrastructure").length;
  const arrows = [...imports.keys()].reduce((sum, folder) => sum + arrowsFrom(folder), 0);
  lines.push(
    "",
    `${floors.size} rooms on ${top + 1} floors, ${arrows} arrows between rooms (${arrowsFrom("app")} of them the roof's), none pointing up or back;`,
  );
  lines.push(
    `apps/sandbox/test/ keeps the ${crossing} test files that cross features (browsers, hardening, several instances).`,
  );
  return lines.join("\n");
}

/** The drawing as the README has it now, or undefined when the README has no drawing. */
export function drawnInReadme(): string | undefined {
  const text = readFileSync(HOUSE_README, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return text
    .slice(start + START.length, end)
    .replace(/^\n```text\n/, "")
    .replace(/\n```\n$/, "");
}

/** Puts the drawing in the README between its markers. */
export function writeIntoReadme(drawing: string): void {
  const text = readFileSync(HOUSE_README, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${HOUSE_README} has no ${START} … ${END} markers.`);
  writeFileSync(
    HOUSE_README,
    `${text.slice(0, start + START.length)}\n\`\`\`text\n${drawing}\n\`\`\`\n${text.slice(end)}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const drawing = await drawHouse();
  if (process.argv.includes("--write")) writeIntoReadme(drawing);
  process.stdout.write(`${drawing}\n`);
}
