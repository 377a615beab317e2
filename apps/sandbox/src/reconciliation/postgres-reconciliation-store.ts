import type pg from "pg";
import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import type { PaymentsStore } from "../payments/index.js";
import { candidatesQuery, matchStatement } from "./match-statement.js";
import type {
  ReconciliationRun,
  ReconciliationStore,
  ReconciliationSummary,
  Statement,
} from "./reconciliation-store.js";

interface RunRow {
  id: string;
  at: string;
  sha256: string;
  repeat_of: string | null;
  counts: ReconciliationSummary["counts"];
  unmatched_count: number;
}

function toSummary(row: RunRow): ReconciliationSummary {
  return {
    id: row.id,
    // bigint arrives as text; every time we keep fits a double exactly.
    at: Number(row.at),
    sha256: row.sha256,
    ...(row.repeat_of === null ? {} : { repeatOf: row.repeat_of }),
    counts: row.counts,
    unmatchedCount: row.unmatched_count,
  };
}

/** The run, marked as a repeat of an earlier import of the same file. */
function withRepeatOf(run: ReconciliationRun, repeatOf: string): ReconciliationRun {
  const { id, at, sha256, ...rest } = run;
  return { id, at, sha256, repeatOf, ...rest };
}

/**
 * Runs in `reconciliation_runs`, each written in the same transaction as the payments it reconciled
 * (the payments store's, under the workspace's lock), so a run is recorded whole or not at all.
 */
export class PostgresReconciliationStore implements ReconciliationStore {
  readonly #pool: pg.Pool;
  readonly #id: StoredWorkspaceId;
  readonly #payments: PaymentsStore;

  /** `payments`: the PostgreSQL payments store on the same pool (the sandbox's, with hashed workspaces). */
  constructor(pool: pg.Pool, storedWorkspaceId: StoredWorkspaceId, payments: PaymentsStore) {
    this.#pool = pool;
    this.#id = storedWorkspaceId;
    this.#payments = payments;
  }

  async reconcile(apiKey: string, statement: Statement, at: number): Promise<ReconciliationRun> {
    const workspace = this.#id(apiKey);
    // Matched and reconciled by the payments' own store, under the workspace's lock; the run is
    // written in the same transaction, so it is recorded whole or not at all.
    return this.#payments.reconcileStatement(
      apiKey,
      candidatesQuery(statement),
      at,
      (candidates) => {
        const { run, toReconcile } = matchStatement(statement, candidates, at, undefined);
        return { reconcile: toReconcile, result: run };
      },
      async (matched, { sql }) => {
        if (!sql) throw new Error("The PostgreSQL reconciliation store needs the PostgreSQL payments store.");
        // Under the lock, so two imports of one file at once cannot both be the first.
        const earlier = await sql.query<{ id: string }>(
          "SELECT id FROM reconciliation_runs WHERE workspace = $1 AND sha256 = $2 ORDER BY position LIMIT 1",
          [workspace, statement.sha256],
        );
        const repeatOf = earlier.rows[0]?.id;
        const run: ReconciliationRun = repeatOf === undefined ? matched : withRepeatOf(matched, repeatOf);
        const { lines, unmatched, ...summary } = run;
        await sql.query(
          `INSERT INTO reconciliation_runs (workspace, id, at, sha256, repeat_of, counts, unmatched_count, report)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            workspace,
            run.id,
            at,
            run.sha256,
            run.repeatOf ?? null,
            JSON.stringify(summary.counts),
            run.unmatchedCount,
            JSON.stringify({ lines, unmatched, ...(run.warnings ? { warnings: run.warnings } : {}) }),
          ],
        );
        return run;
      },
    );
  }

  async runs(apiKey: string): Promise<readonly ReconciliationSummary[]> {
    const workspace = this.#id(apiKey);
    const { rows } = await this.#pool.query<RunRow>(
      `SELECT id, at, sha256, repeat_of, counts, unmatched_count FROM reconciliation_runs
       WHERE workspace = $1 ORDER BY position DESC`,
      [workspace],
    );
    return rows.map(toSummary);
  }

  async run(apiKey: string, id: string): Promise<ReconciliationRun | undefined> {
    const workspace = this.#id(apiKey);
    const { rows } = await this.#pool.query<
      RunRow & { report: Pick<ReconciliationRun, "lines" | "unmatched" | "warnings"> }
    >(
      `SELECT id, at, sha256, repeat_of, counts, unmatched_count, report FROM reconciliation_runs
       WHERE workspace = $1 AND id = $2`,
      [workspace, id],
    );
    const row = rows[0];
    return row
      ? {
          ...toSummary(row),
          lines: row.report.lines,
          unmatched: row.report.unmatched,
          ...(row.report.warnings ? { warnings: row.report.warnings } : {}),
        }
      : undefined;
  }

  async deleteFor(apiKey?: string): Promise<void> {
    if (apiKey === undefined) await this.#pool.query("DELETE FROM reconciliation_runs");
    else await this.#pool.query("DELETE FROM reconciliation_runs WHERE workspace = $1", [this.#id(apiKey)]);
  }
}
