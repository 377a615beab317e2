import type pg from "pg";
import { named } from "../../../infrastructure/postgres/named-statement.js";
import type { PaymentQuery } from "../payments-store.js";
import { PAYMENT_COLUMNS } from "./postgres-payment-rows.js";

/**
 * The listings' statements, one text per shape of filters (only the filters that are set, never
 * `$n IS NULL OR …`), so each is sent as a named statement and planned once per connection. From its
 * sixth run PostgreSQL may plan a named statement without its values (a generic plan, estimated with
 * default selectivities): each text is written so that plan still reads by an index only what the
 * page needs (see listing-plans.test.ts, which asks for the generic plans outright).
 */

/** A statement's text and values, its parameters numbered as they are added. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
  /**
   * Whether a generic plan is safe. Not with a search: only its words say whether the trigram index
   * or the listing's order is the way to go, and a generic plan that walked the listing's order read
   * the whole workspace for a rare reference. Such a statement is sent unnamed, planned every time.
   */
  readonly generic: boolean;
}

/** A statement as node-postgres sends it: named (planned once per connection) when a generic plan is safe. */
export function statementQuery(statement: Statement): pg.QueryConfig {
  return statement.generic
    ? named(statement.text, statement.values)
    : { text: statement.text, values: [...statement.values] };
}

class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown, cast = ""): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/**
 * What the dashboard's search looks in: the payment's reference and description, folded as
 * `foldForSearch` folds them, kept on the row by PostgreSQL (migration 0016) and indexed by trigrams.
 */
const searchText = (row: string) => `${row}.search_text`;

/**
 * A search as a LIKE pattern (its words anywhere in the text, `%` and `_` taken as themselves): the
 * form the trigram index of migration 0016 answers; strpos() would read every payment.
 */
const searchPattern = (search: string) => `%${search.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * A payment's state at a listing's snapshot: its last history entry at or before `version`, looked
 * up through the history's key (a `LEFT JOIN LATERAL`; no row when nothing changed by then), only
 * where `when` holds.
 */
const historyAt = (row: string, version: string, when = "true") => `(
  SELECT h.status, h.completed_at, h.settled_at FROM payment_history h
  WHERE ${when} AND h.workspace = ${row}.workspace AND h.seq = ${row}.seq AND h.version <= ${version}
  ORDER BY h.version DESC LIMIT 1
)`;

/** A listed payment's status at the snapshot: its history's (`h`) when it changed since, else its own. */
const STATUS_THEN = "CASE WHEN q.changed_since THEN coalesce(h.status, q.created_status) ELSE q.status END";

/** The conditions a listing's status filter (or the approvals queue) puts on a payment's state at the snapshot. */
const stateAtSnapshot = (status: string | undefined, awaitingApproval: boolean | undefined) => [
  ...(status ? [`${STATUS_THEN} = ${status}`] : []),
  ...(awaitingApproval ? [`${STATUS_THEN} = 'pending' AND q.countdown_from IS NULL`] : []),
];

/** The same conditions on a payment's state as it is now (`p`): its state at the snapshot when unchanged since. */
const stateNow = (status: string | undefined, awaitingApproval: boolean | undefined) =>
  status !== undefined
    ? `p.status = ${status}`
    : awaitingApproval
      ? "p.status = 'pending' AND p.countdown_from IS NULL"
      : undefined;

/**
 * A listed payment's row as the store reads it: the columns a record is made of (not the search text,
 * nor the rest the row keeps for itself), and its status and times at the snapshot.
 */
const SHOWN_AT_SNAPSHOT = `${PAYMENT_COLUMNS.replace(/(\w+)/g, "q.$1")}, q.changed_since,
  ${STATUS_THEN} AS then_status, h.completed_at AS then_completed_at, h.settled_at AS then_settled_at`;

/**
 * The payments of workspace `ws` changed after version `asOf`, by the version index. The upper bound
 * is no bound (the largest version there can be), but it makes the generic plan's estimate a narrow
 * range, as the changes since a snapshot are, rather than a third of the workspace: that estimate
 * once led it to read every payment in seq order to find them.
 */
const changedSince = ($: Parameters, ws: string, asOf: string) =>
  `p.workspace = ${ws} AND p.version > ${asOf} AND p.version <= ${$.add(Number.MAX_SAFE_INTEGER)}`;

/** The filters on a payment's fixed fields (method, account, search) that are set, as conditions on `row`. */
function fieldConditions($: Parameters, query: PaymentQuery): (row: string) => string[] {
  const method = query.method === undefined ? undefined : $.add(query.method, "::text");
  const account = query.account === undefined ? undefined : $.add(query.account, "::text");
  const reference = query.reference === undefined ? undefined : $.add(query.reference, "::text");
  const search = query.search === undefined ? undefined : $.add(searchPattern(query.search), "::text");
  return (at) => [
    ...(method ? [`${at}.method = ${method}`] : []),
    ...(account ? [`(${at}.from_account = ${account} OR ${at}.to_account = ${account})`] : []),
    ...(reference ? [`${at}.reference = ${reference}`] : []),
    ...(search ? [`${searchText(at)} LIKE ${search}`] : []),
  ];
}

/** The reference condition among a listing's field conditions, on `p`: the index by reference serves it. */
function byReferenceCondition(fields: (row: string) => string[]): string {
  const condition = fields("p").find((c) => c.startsWith("p.reference = "));
  return condition ? ` AND ${condition}` : "";
}

/** The seqs a listing holds: `after < seq <= upTo` (its snapshot, its dates, its cursor's position). */
export interface Seqs {
  readonly after: number;
  readonly upTo: number;
}

/**
 * A page of a listing (with `limit`), or all of it (without, for a count): each payment as it was at
 * the snapshot's version. A payment changed after the snapshot is shown as its history says it was
 * then, and the history is read only for those; no change at or before that version means it was as
 * created (its creation is kept on its row, and it had neither completed nor settled).
 */
export function listingStatement(workspace: string, query: PaymentQuery, seqs: Seqs, limit?: number): Statement {
  const $ = new Parameters();
  const ws = $.add(workspace);
  const after = $.add(seqs.after);
  const upTo = $.add(seqs.upTo);
  const asOf = $.add(query.asOfVersion);
  const status = query.status === undefined ? undefined : $.add(query.status, "::text");
  const fields = fieldConditions($, query);
  const limited = limit === undefined ? "" : ` LIMIT ${$.add(limit)}`;
  const order = query.descending ? "DESC" : "ASC";
  const within = `p.workspace = ${ws} AND p.seq > ${after} AND p.seq <= ${upTo}`;
  // With a status filter (or the approvals queue), a payment unchanged since the snapshot is in that
  // state now: an index finds those in listing order (a page reads a page of them, however many there
  // are), and the few changed since are found by their version and judged by their history below.
  const narrowed = stateNow(status, query.awaitingApproval);
  // A reference names one payment, or a few: found by its index, not by reading the listing's seqs.
  const candidates =
    narrowed === undefined
      ? `SELECT * FROM payments p WHERE ${within}${query.reference === undefined ? "" : byReferenceCondition(fields)}`
      : `(SELECT * FROM payments p WHERE ${[within, narrowed, `p.version <= ${asOf}`, ...fields("p")].join(" AND ")}
            ORDER BY p.seq ${order}${limited})
         UNION ALL
         (SELECT * FROM (SELECT * FROM payments p WHERE ${changedSince($, ws, asOf)} OFFSET 0) p
          WHERE p.seq > ${after} AND p.seq <= ${upTo})`;
  const conditions = [...fields("q"), ...stateAtSnapshot(status, query.awaitingApproval)];
  // The history is looked up row by row, and only for a payment changed since.
  const text = `
    SELECT ${SHOWN_AT_SNAPSHOT}
    FROM (SELECT p.*, p.version > ${asOf} AS changed_since FROM (${candidates}) p) q
    LEFT JOIN LATERAL ${historyAt("q", asOf, "q.changed_since")} h ON true${
      conditions.length > 0 ? `\n    WHERE ${conditions.join(" AND ")}` : ""
    }${limited ? `\n    ORDER BY q.seq ${order}${limited}` : ""}`;
  return { text, values: $.values, generic: query.search === undefined };
}

/**
 * A search's page and its total in one statement. A search reads every payment that matches it,
 * through the trigram index, to find its page: the matches' seqs are kept once, counted, and the page
 * read from them by the key, rather than a second statement reading all the matches again for the
 * count. Beside a status filter, the matches kept are those in that state at the snapshot: as they
 * are now when unchanged since, by their history when changed. The page's seqs lie within the
 * counted ones: a page further on (the dashboard's older and newer pages) is counted over the whole
 * listing all the same.
 */
export function searchPageStatement(
  workspace: string,
  query: PaymentQuery,
  seqs: { readonly counted: Seqs; readonly page: Seqs },
  limit: number,
): Statement {
  const $ = new Parameters();
  const ws = $.add(workspace);
  const within = `p.workspace = ${ws} AND p.seq > ${$.add(seqs.counted.after)} AND p.seq <= ${$.add(seqs.counted.upTo)}`;
  const asOf = $.add(query.asOfVersion);
  const status = query.status === undefined ? undefined : $.add(query.status, "::text");
  const found = [within, ...fieldConditions($, query)("p")].join(" AND ");
  // Beside a status (or the approvals queue), the matches unchanged since the snapshot are in that
  // state now, and only those changed since are judged by their history, as listingStatement does.
  const narrowed = stateNow(status, query.awaitingApproval);
  const matched =
    narrowed === undefined
      ? `SELECT p.seq FROM payments p WHERE ${found}`
      : `SELECT p.seq FROM payments p WHERE ${found} AND ${narrowed} AND p.version <= ${asOf}
         UNION ALL
         SELECT q.seq FROM (SELECT p.*, true AS changed_since FROM payments p
                            WHERE ${found} AND ${changedSince($, ws, asOf)}) q
         LEFT JOIN LATERAL ${historyAt("q", asOf)} h ON true
         WHERE ${stateAtSnapshot(status, query.awaitingApproval).join(" AND ")}`;
  const order = query.descending ? "DESC" : "ASC";
  const onPage = `seq > ${$.add(seqs.page.after)} AND seq <= ${$.add(seqs.page.upTo)}`;
  const text = `
    WITH matched AS MATERIALIZED (${matched}),
    page AS (SELECT seq FROM matched WHERE ${onPage} ORDER BY seq ${order} LIMIT ${$.add(limit)})
    SELECT ${SHOWN_AT_SNAPSHOT}, (SELECT count(*) FROM matched) AS listing_total
    FROM (SELECT p.*, p.version > ${asOf} AS changed_since FROM payments p
          WHERE p.workspace = ${ws} AND p.seq IN (SELECT seq FROM page)) q
    LEFT JOIN LATERAL ${historyAt("q", asOf, "q.changed_since")} h ON true
    ORDER BY q.seq ${order}`;
  return { text, values: $.values, generic: false };
}

/** How many payments a listing holds, counted row by row (a status beside dates or a search). */
export function listingCountStatement(workspace: string, query: PaymentQuery, seqs: Seqs): Statement {
  const listing = listingStatement(workspace, query, seqs);
  return { ...listing, text: `SELECT count(*) AS n FROM (${listing.text}) listing` };
}

/**
 * How many payments in the seqs match the fixed fields (method, account, search): those never
 * change, so the rows are counted as they are now.
 */
export function fieldsCountStatement(workspace: string, query: PaymentQuery, seqs: Seqs): Statement {
  const $ = new Parameters();
  const within = `p.workspace = ${$.add(workspace)} AND p.seq > ${$.add(seqs.after)} AND p.seq <= ${$.add(seqs.upTo)}`;
  const fields = fieldConditions($, query);
  return {
    text: `SELECT count(*) AS n FROM payments p WHERE ${[within, ...fields("p")].join(" AND ")}`,
    values: $.values,
    generic: query.search === undefined,
  };
}

/**
 * How many payments matched status, method and account at a snapshot, from the counts the triggers
 * keep (migration 0013) and the payments changed since: those counted now that match are taken off,
 * and those that matched at the snapshot (made before it, with their status then) put back. Reads
 * only the changed payments, found by their version; one statement, so the counts and the rows come
 * from one moment.
 */
export function keptCountStatement(workspace: string, query: PaymentQuery): Statement {
  const $ = new Parameters();
  const ws = $.add(workspace);
  const asOf = $.add(query.asOfVersion);
  const snapshotSeq = $.add(query.snapshotSeq);
  const status = query.status === undefined ? undefined : $.add(query.status, "::text");
  // The kept counts are by status, method and account: a search is counted row by row instead.
  const fields = fieldConditions($, query);
  const where = (conditions: string[]) => conditions.join(" AND ");
  const text = `SELECT coalesce((SELECT sum(c.n) FROM payment_counts c
      WHERE ${where([`c.workspace = ${ws}`, ...(status ? [`c.status = ${status}`] : []), ...fields("c")])}), 0)
    - (SELECT count(*) FROM payments p
       WHERE ${where([changedSince($, ws, asOf), ...(status ? [`p.status = ${status}`] : []), ...fields("p")])})
    + (SELECT count(*) FROM payments p
       LEFT JOIN LATERAL ${historyAt("p", asOf)} h ON true
       WHERE ${where([
         changedSince($, ws, asOf),
         `p.seq <= ${snapshotSeq}`,
         ...(status ? [`coalesce(h.status, p.created_status) = ${status}`] : []),
         ...fields("p"),
       ])}) AS n`;
  return { text, values: $.values, generic: true };
}
