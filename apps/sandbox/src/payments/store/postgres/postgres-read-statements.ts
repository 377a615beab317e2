import { AWAITING_COMPLETION } from "../payments-store.js";
import { PAYMENT_COLUMNS } from "./postgres-payment-rows.js";

/**
 * Whether workspace $1 turned settlement's cut-off off: its setting's row (the settlement feature's
 * AUTO_SETTLEMENT, on until set) in the workspaces feature's `workspace_settings`. Read here, in the
 * payments ledger's statements, until the cut-off moves into settlement (issue 77, item 2).
 */
export const AUTO_SETTLEMENT_OFF = `EXISTS (SELECT 1 FROM workspace_settings
  WHERE workspace = $1 AND name = 'auto_settlement' AND value = 'false'::jsonb)`;

/** The statuses completion looks at, as an SQL list (the partial index's predicate says the same). */
export const AWAITING_SQL = [...AWAITING_COMPLETION].map((s) => `'${s}'`).join(", ");

/**
 * Whether workspace $1 has a payment that completion would act on, by the parameter holding the
 * due-by time: one row or none. The ORDER BY is what keeps it on the partial index: without it, a
 * generic plan (PostgreSQL's choice for a named statement after five runs) takes "status pending"
 * to match a third of the table and expects a sequential scan to meet a due row at once; when none is
 * due, nearly always, it read the whole table (74 ms at 300,000 payments), on every read and every
 * turn of the due-work loop.
 */
const firstAwaitingCompletionSql = (dueBy: string) =>
  `SELECT 1 FROM payments WHERE workspace = $1 AND status IN (${AWAITING_SQL}) AND countdown_from <= ${dueBy}
   ORDER BY countdown_from LIMIT 1`;

/**
 * Whether workspace $1 has a payment that settlement would act on, by the parameter holding the
 * cut-off: as above. Settlement's switch (AUTO_SETTLEMENT_OFF) is a one-time filter on the plan.
 */
const firstAwaitingSettlementSql = (cutoff: string) =>
  `SELECT 1 FROM payments p
   WHERE p.workspace = $1 AND NOT ${AUTO_SETTLEMENT_OFF} AND p.status = 'completed' AND p.completed_at < ${cutoff}
   ORDER BY p.completed_at LIMIT 1`;

/** Whether completion has work by the due-by time or settlement by the cut-off (each a parameter): true or false. */
const anythingDueSql = (dueBy: string, cutoff: string) =>
  `(${firstAwaitingCompletionSql(dueBy)}) IS NOT NULL OR (${firstAwaitingSettlementSql(cutoff)}) IS NOT NULL`;

/**
 * The probes of time's work, by name: the statements that run on every read and every turn of the
 * due-work loop, so each must cost an index lookup however many payments the workspace holds.
 */
export const ELAPSED_PROBES = {
  // Scalar subqueries, not EXISTS: PostgreSQL drops an ORDER BY inside EXISTS, and with it the index.
  payspec_elapsed_probe: `SELECT ${anythingDueSql("$2", "$3")} AS due`,
  payspec_due_probe: firstAwaitingCompletionSql("$2"),
  payspec_settlement_probe: firstAwaitingSettlementSql("$2"),
} as const;

/** A payment read by id: its row, with its history after creation as JSON (changes), from payments p. */
const PAYMENT_WITH_HISTORY = `${PAYMENT_COLUMNS}, created_status, created_cause, created_version, created_actor,
  (SELECT json_agg(json_build_object('status', h.status, 'at', h.at, 'cause', h.cause, 'version', h.version,
            'completed_at', h.completed_at, 'settled_at', h.settled_at, 'shortfall', h.shortfall,
            'actor', h.actor) ORDER BY h.version)
   FROM payment_history h WHERE h.workspace = p.workspace AND h.seq = p.seq) AS changes`;

/**
 * Payments $2 (ids) of workspace $1, with these columns of payments p: each found on its own by the
 * (workspace, id) index. Written as `id = ANY($2)`, on a table whose statistics lag its growth (none
 * yet on a new sandbox a load test fills, or taken while it was small), PostgreSQL took the workspace
 * for a few rows, read all of them and kept those with the ids: GETs by id fell to 757/s at about
 * 100,000 payments. The LIMIT keeps each lookup a subquery of its own, which only that index answers well.
 */
const paymentsByIds = (columns: string) => `SELECT p.* FROM unnest($2::text[]) AS wanted(wanted_id)
  CROSS JOIN LATERAL (SELECT ${columns} FROM payments p WHERE workspace = $1 AND id = wanted_id LIMIT 1) p`;

/**
 * What a read asks first (see readAfterElapsedTime), for a statement that reads with it: workspace $1's
 * clock offset (by the parameter holding its clock scope) and whether completion or settlement has
 * work by the due-by time and the cut-off. One row; the read joins it, so it answers even when the
 * read finds nothing.
 */
const elapsedSeen = (scope: string, dueBy: string, cutoff: string) =>
  `SELECT coalesce((SELECT offset_ms FROM clock_offsets WHERE scope = ${scope}), 0) AS offset_ms,
    ${anythingDueSql(dueBy, cutoff)} AS due`;

/**
 * Payments $2 (ids) of workspace $1 as the API shows them (no history), with elapsedSeen ($3 to $5): a
 * row of nulls but those when none is found.
 */
const PAYMENTS_WITH_ELAPSED = `SELECT seen.offset_ms, seen.due, p.* FROM (${elapsedSeen("$3", "$4", "$5")}) seen
  LEFT JOIN LATERAL (${paymentsByIds(PAYMENT_COLUMNS)}) p ON true`;

/** The accounts of workspace $1 in their order, with elapsedSeen ($2 to $4). */
export const ACCOUNTS_WITH_ELAPSED = `SELECT seen.offset_ms, seen.due, a.id, a.name, a.currency, a.balance_minor
  FROM (${elapsedSeen("$2", "$3", "$4")}) seen
  LEFT JOIN LATERAL (SELECT id, name, currency, balance_minor, position FROM accounts WHERE workspace = $1) a
  ON true ORDER BY a.position`;

/**
 * The reads of payments by id, by name: what every GET /v1/payments/{id} sends, so each must look up
 * the payments asked for and no others, however many the workspace holds and whatever its statistics say.
 */
export const PAYMENT_READS = {
  payspec_payments_by_id: paymentsByIds(PAYMENT_WITH_HISTORY),
  payspec_payments_with_elapsed: PAYMENTS_WITH_ELAPSED,
} as const;
