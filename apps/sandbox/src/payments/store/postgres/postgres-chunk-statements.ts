import type pg from "pg";
import { DAY_MS, ISTANBUL_OFFSET_MS } from "../../../infrastructure/time/istanbul-time.js";

/** Payments settled per transaction: one statement each, under the workspace's lock. */
export const SETTLEMENT_CHUNK = 5_000;

/**
 * The statements that change a chunk of one workspace's payments, each in one statement: the
 * workspace's next versions, the payments' new state and their history entries. The caller's
 * transaction holds the workspace's lock.
 *
 * Each finds its payments by their whole key, the workspace taken from the chunk's own rows rather than
 * from the parameter, and is planned with KEYED_LOOKUPS_ONLY (see changeChunk). Left to itself, the
 * planner read every payment of the workspace to hash-join the chunk's thousand: with `p.workspace = $1`
 * and statistics from when the workspace was small, it expected a few hundred; with fresh statistics,
 * a sequential scan looks cheaper than a thousand index lookups below about 300,000 payments. Either
 * way a chunk cost time in proportion to the workspace (98,000 payments read for 1,000 changed, at
 * 100,000), under the workspace's lock, while its creates waited.
 */
export const CHUNK_STATEMENTS = {
  /** $2 payments of workspace $1 completed or failed: their seqs, statuses, times and shortfalls ($3–$7). */
  completion: `WITH ws AS (
       UPDATE workspaces SET version = version + $2 WHERE workspace = $1 RETURNING version - $2 AS base
     ), change AS (
       SELECT $1::text AS workspace, c.*
       FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::jsonb[]) WITH ORDINALITY
         AS c(seq, status, at, completed_at, shortfall, n)
     ), payment AS (
       UPDATE payments p SET status = change.status, completed_at = change.completed_at, version = ws.base + change.n
       FROM change, ws WHERE p.workspace = change.workspace AND p.seq = change.seq
     )
     INSERT INTO payment_history (workspace, seq, version, status, at, cause, completed_at, shortfall)
     SELECT $1, change.seq, ws.base + change.n, change.status, change.at, 'completion', change.completed_at, change.shortfall
     FROM change, ws`,

  /**
   * The next SETTLEMENT_CHUNK payments of workspace $1 completed before the cut-off $2, settled: each at
   * the first Istanbul midnight after its completion (integer division: completed_at is positive).
   */
  settlement: `WITH due AS (
       SELECT workspace, seq, completed_at,
              ((completed_at + ${ISTANBUL_OFFSET_MS}) / ${DAY_MS} + 1) * ${DAY_MS} - ${ISTANBUL_OFFSET_MS} AS settled_at,
              row_number() OVER (ORDER BY completed_at, seq) AS n
       FROM payments WHERE workspace = $1 AND status = 'completed' AND completed_at < $2
       ORDER BY completed_at, seq LIMIT ${SETTLEMENT_CHUNK}
     ), ws AS (
       UPDATE workspaces SET version = version + (SELECT count(*) FROM due) WHERE workspace = $1
       RETURNING version - (SELECT count(*) FROM due) AS base
     ), payment AS (
       UPDATE payments p SET status = 'settled', settled_at = due.settled_at, version = ws.base + due.n
       FROM due, ws WHERE p.workspace = due.workspace AND p.seq = due.seq
     )
     INSERT INTO payment_history (workspace, seq, version, status, at, cause, completed_at, settled_at)
     SELECT $1, due.seq, ws.base + due.n, 'settled', due.settled_at, 'settlement', due.completed_at, due.settled_at
     FROM due, ws`,

  /** Payments $2 (seqs) of workspace $1, $3 of them, reconciled at $4. No money moves. */
  reconciliation: `WITH change AS (
       SELECT $1::text AS workspace, c.* FROM unnest($2::bigint[]) WITH ORDINALITY AS c(seq, n)
     ), ws AS (
       UPDATE workspaces SET version = version + $3 WHERE workspace = $1 RETURNING version - $3 AS base
     ), payment AS (
       UPDATE payments p SET status = 'reconciled', version = ws.base + change.n
       FROM change, ws WHERE p.workspace = change.workspace AND p.seq = change.seq
     )
     INSERT INTO payment_history (workspace, seq, version, status, at, cause, completed_at, settled_at)
     SELECT $1, change.seq, ws.base + change.n, 'reconciled', $4, 'reconciliation', p.completed_at, p.settled_at
     FROM change, ws, payments p WHERE p.workspace = change.workspace AND p.seq = change.seq`,
} as const;

/**
 * For the statement after it only: joins by nested loop, so each payment of the chunk is looked up by
 * its key, never found by reading the table (or an index of it) whole to hash or merge it with the
 * chunk. PostgreSQL has no plan hints; ruling join methods out is how one gets a plan.
 */
const KEYED_LOOKUPS_ONLY =
  "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)";
const ANY_PLAN = "SELECT set_config('enable_hashjoin', 'on', true), set_config('enable_mergejoin', 'on', true)";

/**
 * Runs one of CHUNK_STATEMENTS inside the caller's transaction, planned with KEYED_LOOKUPS_ONLY. The
 * settings are the transaction's own (set_config's `true`): put back after the statement for the
 * transaction's next statements, and gone with it when the statement fails (the transaction is then
 * aborted, and a query to put them back would fail in its turn and hide the statement's own error).
 */
export async function changeChunk(
  client: pg.ClientBase,
  statement: keyof typeof CHUNK_STATEMENTS,
  values: unknown[],
): Promise<pg.QueryResult> {
  await client.query(KEYED_LOOKUPS_ONLY);
  const result = await client.query(CHUNK_STATEMENTS[statement], values);
  await client.query(ANY_PLAN);
  return result;
}
