import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { KNOWN_SQL_CROSSINGS } from "../src/known-sql-crossings.js";
import { sqlCrossings } from "../src/sql-crossings.js";

const SANDBOX_SOURCE = fileURLToPath(new URL("../../../apps/sandbox/src/", import.meta.url));

/** A source folder with these files (paths relative to it). */
function source(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "payspec-sql-crossings-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("features reach into no other feature's tables in SQL", () => {
  it("finds a deliberate crossing: a read, an ALTER in a migration, a write; not a feature's own table, a foreign key or its tests", () => {
    const dir = source({
      "ledger/migrations/0001_ledger.sql": "CREATE TABLE ledger_entries (id text PRIMARY KEY);",
      "ledger/ledger-store.ts": 'export const sql = "SELECT id FROM ledger_entries";',
      "ledger/test/ledger.test.ts": 'const q = "DELETE FROM budget_lines";',
      "budget/migrations/0001_budget.sql":
        "CREATE TABLE budget_lines (id text);\nALTER TABLE ledger_entries ADD COLUMN budget text;",
      "budget/budget-store.ts":
        'import { x } from "../ledger/ledger-store.js";\nexport const q = `UPDATE ledger_entries SET budget = $1`;',
      "reports/report.ts": "export const q = `SELECT b.id FROM budget_lines b JOIN ledger_entries l ON true`;",
      // A foreign key links two features' rows; it is no crossing.
      "notes/migrations/0002_notes.sql": "CREATE TABLE notes (entry text REFERENCES ledger_entries ON DELETE CASCADE);",
    });
    // The migration's ALTER alone is a crossing too.
    rmSync(join(dir, "budget/budget-store.ts"));
    expect(sqlCrossings(dir).map((c) => c.file)).toContain("budget/migrations/0001_budget.sql");
    writeFileSync(join(dir, "budget/budget-store.ts"), "export const q = `UPDATE ledger_entries SET budget = $1`;");
    expect(sqlCrossings(dir).map((c) => `${c.feature} ${c.table} ${c.owner} ${c.file}`)).toEqual([
      "budget ledger_entries ledger budget/budget-store.ts",
      "reports budget_lines budget reports/report.ts",
      "reports ledger_entries ledger reports/report.ts",
    ]);
  });

  it("holds in the sandbox: every crossing is a known one, and every known one still exists (the list only shrinks)", () => {
    const found = sqlCrossings(SANDBOX_SOURCE).map((c) => `${c.feature} → ${c.table} (${c.owner}'s), in ${c.file}`);
    const known = new Set(KNOWN_SQL_CROSSINGS.map((k) => `${k.feature} ${k.table}`));
    const unknown = found.filter((line) => !known.has(line.replace(/ → (\w+) .*/, " $1")));
    expect(unknown, "a feature's SQL names another feature's table: ask the owner through its interface").toEqual([]);
    const gone = [...known].filter((k) => !found.some((line) => line.replace(/ → (\w+) .*/, " $1") === k));
    expect(gone, "a known crossing is gone: remove it from known-sql-crossings.ts").toEqual([]);
  });
});
