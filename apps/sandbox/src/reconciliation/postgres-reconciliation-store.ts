import type pg from "pg";
import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import { inTransaction } from "../infrastructure/postgres/transaction.js";
import { lockWorkspace } from "../infrastructure/postgres/workspace-lock.js";
import { FOLD_FROM, FOLD_TO } from "../infrastructure/text/search-fold.js";
import { DAY_MS, ISTANBUL_OFFSET_MS } from "../infrastructure/time/istanbul-time.js";
import { markReconciled, num, PAYMENT_COLUMNS, type PaymentRow, toRecord } from "../payments/index.js";
import { matchStatement, referenceKeys, VALUE_DATE_DAYS_AFTER_SETTLEMENT } from "./match-statement.js";
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
    at: num(row.at),
    sha256: row.sha256,
    ...(row.repeat_of === null ? {} : { repeatOf: row.repeat_of }),
    counts: row.counts,
    unmatchedCount: row.unmatched_count,
  };
}

/**
 * Runs in `reconciliation_runs`, each written in the same transaction as the payments it reconciled
 * (under the workspace's lock), so a run is recorded whole or not at all.
 */
export class PostgresReconciliationStore implements ReconciliationStore {
  readonly #pool: pg.Pool;
  readonly #id: StoredWorkspaceId;

  constructor(pool: pg.Pool, storedWorkspaceId: StoredWorkspaceId) {
    this.#pool = pool;
    this.#id = storedWorkspaceId;
  }

  async reconcile(apiKey: string, statement: Statement, at: number): Promise<ReconciliationRun> {
    const workspace = this.#id(apiKey);
    // One transaction under the workspace's lock: the run and every reconciliation it makes commit
    // together, and two imports at once (any instances) take turns, so nothing reconciles twice.
    return inTransaction(this.#pool, async (client) => {
      await lockWorkspace(client, workspace);
      // References compared as referenceKey folds them: the same table in SQL as in JavaScript.
      const keys = [...new Set(statement.lines.flatMap(referenceKeys))];
      const byReference = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE workspace = $1 AND reference IS NOT NULL
           AND translate(normalize(btrim(reference), NFC), $3, $4) = ANY($2::text[])`,
        [workspace, keys, FOLD_FROM, FOLD_TO],
      );
      // Settled payments whose value-date window (completion to a few days after settlement) may hold
      // one of the statement's dates, by Istanbul day number; the matcher decides each exactly.
      const days = [...new Set(statement.lines.map((line) => Date.parse(`${line.valueDate}T00:00:00Z`) / DAY_MS))];
      const [first, last] = days.length > 0 ? [Math.min(...days), Math.max(...days)] : [1, 0];
      const settled = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments
         WHERE workspace = $1 AND status = 'settled' AND (completed_at + ${ISTANBUL_OFFSET_MS}) / ${DAY_MS} <= $3
           AND (settled_at + ${ISTANBUL_OFFSET_MS}) / ${DAY_MS} + ${VALUE_DATE_DAYS_AFTER_SETTLEMENT} >= $2`,
        [workspace, first, last],
      );
      const earlier = await client.query<{ id: string }>(
        "SELECT id FROM reconciliation_runs WHERE workspace = $1 AND sha256 = $2 ORDER BY position LIMIT 1",
        [workspace, statement.sha256],
      );
      const { run, toReconcile } = matchStatement(
        statement,
        { byReference: byReference.rows.map(toRecord), settledOnValueDates: settled.rows.map(toRecord) },
        at,
        earlier.rows[0]?.id,
      );
      await markReconciled(
        client,
        workspace,
        toReconcile.map((p) => p.seq),
        at,
      );
      const { lines, unmatched, ...summary } = run;
      await client.query(
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
    });
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
