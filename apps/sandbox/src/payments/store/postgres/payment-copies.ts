/** SQL expressions of a copy's columns: of `g` (the copy's number) and `p` (the payment copied). */
export type CopiedColumns = Readonly<Record<string, string>>;

/** What runs the copy: a pool or a client of the sandbox's database. */
interface Queries {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Fills a workspace to a size in seconds, for the tests and benchmarks that need a large one: copies
 * of its first payment (the one with seq 1, made by a real create so that every column is as the
 * store writes it), numbered `first` to `last` in one statement. Seq, id and versions follow the
 * copy's number; `columns` gives any column an expression of its own, and a column not given is the
 * first payment's. The workspace's own counters (its seq and version) are the caller's to move.
 */
export async function copyFirstPayment(
  db: Queries,
  workspace: string,
  copies: { first: number; last: number },
  columns: CopiedColumns = {},
): Promise<void> {
  // Every column of the table, read from it: a column a migration adds is copied too, not left null.
  // Not those PostgreSQL computes (the search text): it computes them for the copies as well.
  const names = (
    await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_name = 'payments' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const numbered: CopiedColumns = {
    seq: "g",
    id: "'pay_' || lpad(g::text, 16, '0')",
    version: "g",
    created_version: "g",
    ...columns,
  };
  await db.query(
    `INSERT INTO payments (${names.join(", ")})
     SELECT ${names.map((c) => numbered[c] ?? `p.${c}`).join(", ")}
     FROM payments p, generate_series($2::int, $3::int) g WHERE p.workspace = $1 AND p.seq = 1`,
    [workspace, copies.first, copies.last],
  );
}
