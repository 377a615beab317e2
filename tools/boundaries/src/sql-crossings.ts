import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Where the sandbox's features reach into each other's tables. dependency-cruiser reads imports; a
 * feature that writes `UPDATE workspaces` in a string, or alters in its migration a table another
 * feature created, imports nothing and shows up nowhere. This reads the SQL itself: each table belongs
 * to the feature whose migration creates it, and any other feature naming it in SQL (its code, not its
 * tests, or its migrations) is a crossing.
 */

export interface SqlCrossing {
  /** The feature folder whose SQL names the table. */
  readonly feature: string;
  readonly table: string;
  /** The feature whose migration creates the table. */
  readonly owner: string;
  /** Where, relative to the source folder: the first file that names it. */
  readonly file: string;
}

// Upper-case keywords only: the house writes SQL in capitals, so `import … from "x"` never matches.
const CREATES = /\bCREATE TABLE(?: IF NOT EXISTS)?\s+([a-z_][a-z0-9_]*)/g;
// Not REFERENCES: a foreign key to another feature's table (every row hangs off its workspace) is a
// link the database keeps, as Medusa's links join modules; it reads and writes nothing of the owner's.
const NAMES = /\b(?:FROM|JOIN|INTO|UPDATE|ALTER TABLE|DELETE FROM|TRUNCATE)\s+([a-z_][a-z0-9_]*)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "test" || name === "node_modules" ? [] : filesUnder(path);
    return /\.(ts|sql)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The feature folder of a file: the first folder under the source folder. */
const featureOf = (source: string, file: string) => relative(source, file).split("/")[0] ?? "";

/** Each table and the feature whose migration (under `<feature>/migrations/`) creates it. */
export function tableOwners(source: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of filesUnder(source)) {
    if (!/\/migrations\//.test(file)) continue;
    for (const [, table] of readFileSync(file, "utf8").matchAll(CREATES))
      if (table && !owners.has(table)) owners.set(table, featureOf(source, file));
  }
  return owners;
}

/** Every (feature, table) pair where a feature's SQL names a table another feature owns, sorted. */
export function sqlCrossings(source: string): SqlCrossing[] {
  const owners = tableOwners(source);
  const found = new Map<string, SqlCrossing>();
  for (const file of filesUnder(source).sort()) {
    const feature = featureOf(source, file);
    for (const [, table] of readFileSync(file, "utf8").matchAll(NAMES)) {
      const owner = table ? owners.get(table) : undefined;
      if (!table || !owner || owner === feature) continue;
      const key = `${feature} ${table}`;
      if (!found.has(key)) found.set(key, { feature, table, owner, file: relative(source, file) });
    }
  }
  return [...found.values()].sort((a, b) => `${a.feature} ${a.table}`.localeCompare(`${b.feature} ${b.table}`));
}
