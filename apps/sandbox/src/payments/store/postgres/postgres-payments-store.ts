import type { PaymentStatus } from "@payspec/payments-zod";
import type pg from "pg";
import {
  CommitOutcomeUnknown,
  isDatabaseAway,
  neverReachedDatabase,
} from "../../../infrastructure/postgres/database-unavailable.js";
import { BatchedReads, SharedReads, SharedReadsAsOfLatest } from "../../../infrastructure/postgres/shared-reads.js";
import { inTransaction } from "../../../infrastructure/postgres/transaction.js";
import { lockWorkspace } from "../../../infrastructure/postgres/workspace-lock.js";
import { FOLD_FROM, FOLD_TO } from "../../../infrastructure/text/search-fold.js";
import { workspaceScope } from "../../../infrastructure/time/clock-scopes.js";
import { DAY_MS, ISTANBUL_OFFSET_MS, istanbulMidnightAtOrBefore } from "../../../infrastructure/time/istanbul-time.js";
import {
  type Actor,
  countedQuery,
  type DecideReconciliation,
  insertedPayment,
  type KeepReconciliation,
  MONEY_MOVED,
  type NewPayment,
  type PaymentQuery,
  type PaymentRecord,
  type PaymentsStore,
  restartsCountdown,
  type Shortfall,
  type Snapshot,
  type StatementCandidatesQuery,
  type StatusChange,
  type StoredAccount,
  type StoredPayment,
  type TransitionCause,
  type TransitionResult,
  type WithElapsed,
  type WorkspaceSeed,
} from "../payments-store.js";
import { changeChunk, SETTLEMENT_CHUNK } from "./postgres-chunk-statements.js";
import {
  fieldsCountStatement,
  keptCountStatement,
  listingCountStatement,
  listingStatement,
  type Seqs,
  searchPageStatement,
  statementQuery,
} from "./postgres-listing-statements.js";
import { markReconciled, num, PAYMENT_COLUMNS, type PaymentRow, toRecord } from "./postgres-payment-rows.js";
import {
  ACCOUNTS_WITH_ELAPSED,
  AUTO_SETTLEMENT_OFF,
  AWAITING_SQL,
  ELAPSED_PROBES,
  PAYMENT_READS,
} from "./postgres-read-statements.js";

/** A probe as node-postgres runs it: a named statement, planned once per connection. */
const probe = (name: keyof typeof ELAPSED_PROBES, values: unknown[]) => ({ name, text: ELAPSED_PROBES[name], values });

/** What elapsedSeen adds to a row. */
interface ElapsedSeenRow {
  offset_ms: string;
  due: boolean;
}

/**
 * The key of a workspace's shared probes: the delay is the process's setting, in the key all the
 * same, so a probe never serves another.
 */
const probeKey = (workspace: string, delayMs: number) => `${delayMs} ${workspace}`;

/** The due-by time and the settlement cut-off that a question about time's work as of `asOf` asks with. */
const elapsedMoments = (asOf: number, delayMs: number) => [asOf - delayMs, istanbulMidnightAtOrBefore(asOf)];

function probeKeyParts(key: string): { workspace: string; delayMs: number } {
  const separator = key.indexOf(" ");
  return { workspace: key.slice(separator + 1), delayMs: Number(key.slice(0, separator)) };
}

/** A payment's first history entry, kept on its row: its time is created_at. */
interface CreationRow {
  created_status: string;
  created_cause: string;
  created_version: string;
  created_actor: string | null;
}

interface HistoryJson {
  status: PaymentStatus;
  at: number;
  cause: TransitionCause;
  version: number;
  completed_at: number | null;
  settled_at: number | null;
  shortfall: Shortfall | null;
  actor: string | null;
}

function toChange(h: HistoryJson): StatusChange {
  return {
    status: h.status,
    at: num(h.at),
    cause: h.cause,
    version: num(h.version),
    ...(h.completed_at === null ? {} : { completedAt: num(h.completed_at) }),
    ...(h.settled_at === null ? {} : { settledAt: num(h.settled_at) }),
    ...(h.shortfall ? { shortfall: h.shortfall } : {}),
    ...(h.actor ? { actor: h.actor } : {}),
  };
}

/** A payment read with its history: its first entry kept on its row, the later ones aggregated. */
function toStoredPayment(row: PaymentRow & CreationRow & { changes: HistoryJson[] | null }): StoredPayment {
  const creation: StatusChange = {
    status: row.created_status as PaymentStatus,
    at: num(row.created_at),
    cause: row.created_cause as TransitionCause,
    version: num(row.created_version),
    ...(row.created_actor ? { actor: row.created_actor } : {}),
  };
  return { ...toRecord(row), history: [creation, ...(row.changes ?? []).map(toChange)] };
}

function toAccount(row: { id: string; name: string; currency: string; balance_minor: string }): StoredAccount {
  return { id: row.id, name: row.name, currency: row.currency, balanceMinor: num(row.balance_minor) };
}

/** A workspace's creates waiting to go in; it is in #insertQueues exactly while its flusher runs. */
interface InsertQueue {
  readonly waiting: { draft: NewPayment; resolve: (p: StoredPayment) => void; reject: (e: Error) => void }[];
  /** How many creates the next group waits for (see #flushInserts). */
  expected: number;
  /** Set while the next group gathers: sends it at once. */
  gathered?: () => void;
}

/**
 * Due payments completed per transaction: the workspace's lock is let go between chunks, and the
 * workspace's creates wait for at most one chunk. With a chunk of 1,000, their p99 was 71 ms under a
 * steady load while payments fell due; with 250, 38 ms, and the background loop still kept up.
 */
const COMPLETION_CHUNK = 250;

/** At most this many payments read by id in one query. */
const MAX_BATCHED_READS = 100;

/** At most this many creates per grouped insert (a full batch request's worth). */
const MAX_INSERT_GROUP = 500;

/**
 * At most this long, a group waits for the callers just answered to send their next create. A caller
 * that creates again as soon as it hears back (a test suite's workers, a load generator) is back
 * within a millisecond or two; one that is not costs the group this wait, once.
 */
const GATHER_MS = 3;

/** Resolves once the queue holds as many creates as its next group expects, or after GATHER_MS. */
function gatherGroup(queue: InsertQueue): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(gathered, GATHER_MS);
    function gathered() {
      clearTimeout(timer);
      queue.gathered = undefined;
      resolve();
    }
    queue.gathered = gathered;
  });
}

/** A draft as the grouped insert reads it: json_to_recordset's columns, absent values null. */
function insertedFields(d: NewPayment) {
  return {
    id: d.id,
    amount: d.amount,
    currency: d.currency,
    method: d.method,
    from_account: d.from_account,
    to_account: d.to_account,
    description: d.description ?? null,
    reference: d.reference ?? null,
    asked_at: d.createdAt,
    status: d.status,
    asked_countdown: d.countdownFrom ?? null,
    cause: d.cause,
    offset_used: d.clockOffsetMs ?? null,
    actor: d.actor ?? null,
  };
}

async function insertSeed(client: pg.ClientBase, seed: WorkspaceSeed): Promise<void> {
  for (const [position, account] of seed.accounts.entries()) {
    await client.query(
      "INSERT INTO accounts (workspace, id, position, name, currency, balance_minor) VALUES ($1, $2, $3, $4, $5, $6)",
      [seed.workspace, account.id, position, account.name, account.currency, account.balanceMinor],
    );
  }
}

/**
 * The payments service's state in PostgreSQL, shared by every sandbox instance on the database.
 *
 * Every write to a workspace locks that workspace's row first and bumps its version, so writes to one
 * workspace are serialised and commit in version order. That is what makes a listing's snapshot exact:
 * a snapshot is (payment_count, version) read from the committed row, and every payment or change
 * numbered at or below it was committed together with that row. (A sequence would not do: numbers are
 * handed out in one order and committed in another.)
 */
export class PostgresPaymentsStore implements PaymentsStore {
  readonly #pool: pg.Pool;
  readonly #insertQueues = new Map<string, InsertQueue>();
  /** Account listings under load: concurrent reads of one workspace's accounts share a query. */
  readonly #accounts = new SharedReads(async (workspace): Promise<readonly StoredAccount[]> => {
    const { rows } = await this.#pool.query({
      name: "payspec_accounts",
      text: "SELECT id, name, currency, balance_minor FROM accounts WHERE workspace = $1 ORDER BY position",
      values: [workspace],
    });
    return rows.map(toAccount);
  });

  /** Payments by id: the reads a turn's GETs make together go in one query per workspace. */
  readonly #payments = new BatchedReads<StoredPayment>(
    (workspace, ids) => this.#paymentsById(workspace, ids),
    MAX_BATCHED_READS,
  );

  /**
   * Payments by id with what a read asks first, batched as #payments is: a turn's GETs of a workspace
   * cost one statement, not a probe and a read (see readAfterElapsedTime). Keyed as #elapsedProbes.
   */
  readonly #paymentsWithElapsed = new BatchedReads<WithElapsed<PaymentRecord | undefined>>(
    (key, ids, asOf) => this.#readPaymentsWithElapsed(key, ids, asOf),
    MAX_BATCHED_READS,
  );

  /** The accounts with what a read asks first: concurrent reads of a workspace share the statement. */
  readonly #accountsWithElapsed = new SharedReadsAsOfLatest<WithElapsed<readonly StoredAccount[]>>(
    async (key, asOf) => {
      const { found, offsetMs, due } = await this.#readWithElapsed<Parameters<typeof toAccount>[0]>(
        "payspec_accounts_with_elapsed",
        ACCOUNTS_WITH_ELAPSED,
        key,
        [],
        asOf,
      );
      return { value: found.map(toAccount), offsetMs, due };
    },
  );

  /**
   * Every read asks whether time has work for its workspace first: concurrent reads of one workspace
   * share the probe, asked as of the latest of their clocks (nearly always, nothing is due by then).
   */
  readonly #elapsedProbes = new SharedReadsAsOfLatest(async (key, now) => {
    const { workspace, delayMs } = probeKeyParts(key);
    const { rows } = await this.#pool.query<{ due: boolean }>(
      probe("payspec_elapsed_probe", [workspace, ...elapsedMoments(now, delayMs)]),
    );
    return rows[0]?.due === true;
  });

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async reset(seeds: readonly WorkspaceSeed[]): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      // Payments are not tied to their workspace by a foreign key (migration 0008), nor histories to
      // their payments (0015): each is deleted here.
      await client.query("DELETE FROM payment_history");
      await client.query("DELETE FROM payments");
      await client.query("DELETE FROM workspaces");
      for (const seed of seeds) {
        await client.query("INSERT INTO workspaces (workspace) VALUES ($1)", [seed.workspace]);
        await insertSeed(client, seed);
      }
    });
  }

  async ensureWorkspaces(seeds: readonly WorkspaceSeed[]): Promise<string[]> {
    const created: string[] = [];
    for (const seed of seeds) {
      await inTransaction(this.#pool, async (client) => {
        // Two instances starting at once: the second waits on the first's insert, then does nothing.
        const { rowCount } = await client.query(
          "INSERT INTO workspaces (workspace) VALUES ($1) ON CONFLICT (workspace) DO NOTHING",
          [seed.workspace],
        );
        if (rowCount === 1) {
          await insertSeed(client, seed);
          created.push(seed.workspace);
        }
      });
    }
    return created;
  }

  async resetWorkspace(seed: WorkspaceSeed): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      // The upsert takes the workspace's lock, so no write of another instance interleaves.
      await client.query(
        `INSERT INTO workspaces (workspace) VALUES ($1)
         ON CONFLICT (workspace) DO UPDATE SET payment_count = 0, version = 0,
           last_created_at = 0, previous_created_at = 0`,
        [seed.workspace],
      );
      await client.query("DELETE FROM payment_history WHERE workspace = $1", [seed.workspace]);
      await client.query("DELETE FROM payments WHERE workspace = $1", [seed.workspace]);
      await client.query("DELETE FROM accounts WHERE workspace = $1", [seed.workspace]);
      await insertSeed(client, seed);
    });
  }

  accounts(workspace: string): Promise<readonly StoredAccount[]> {
    return this.#accounts.get(workspace);
  }

  async account(workspace: string, id: string): Promise<StoredAccount | undefined> {
    const { rows } = await this.#pool.query({
      name: "payspec_account",
      text: "SELECT id, name, currency, balance_minor FROM accounts WHERE workspace = $1 AND id = $2",
      values: [workspace, id],
    });
    return rows[0] ? toAccount(rows[0]) : undefined;
  }

  insert(workspace: string, draft: NewPayment): Promise<StoredPayment> {
    // Group commit: creates that arrive while this workspace's previous insert is committing wait for
    // it, then go in together, in arrival order, in one statement. Inserts to one workspace are
    // serialised by its lock anyway, so without grouping each would wait for the one before it to
    // reach the disk (one fsync each); grouped, one fsync serves them all. Each caller still hears
    // back only after its payment is committed.
    return new Promise((resolve, reject) => {
      const queue = this.#insertQueues.get(workspace);
      if (queue) {
        queue.waiting.push({ draft, resolve, reject });
        if (queue.waiting.length >= queue.expected) queue.gathered?.();
        return;
      }
      const started: InsertQueue = { waiting: [{ draft, resolve, reject }], expected: 1 };
      this.#insertQueues.set(workspace, started);
      // A batch's entries are all asked for in this turn: the first group starts after them.
      queueMicrotask(() => void this.#flushInserts(workspace, started));
    });
  }

  async #flushInserts(workspace: string, queue: InsertQueue): Promise<void> {
    for (;;) {
      if (queue.waiting.length < queue.expected) await gatherGroup(queue);
      if (queue.waiting.length === 0) break;
      const group = queue.waiting.splice(0, MAX_INSERT_GROUP);
      try {
        const stored = await this.#insertGroup(
          workspace,
          group.map((g) => g.draft),
        );
        // The callers answered now are likely to create again at once. The next group waits for them
        // as well as for those already waiting: under a steady load from N callers, groups of N rather
        // than two groups of about N/2 taking turns, so half the commits, each waiting on the disk.
        queue.expected = Math.min(MAX_INSERT_GROUP, group.length + queue.waiting.length);
        for (const [i, g] of group.entries()) g.resolve(stored[i] as StoredPayment);
      } catch (error) {
        if (group.length === 1) {
          group[0]?.reject(error as Error);
          continue;
        }
        // With the database away, each alone would fail the same way; and a statement cut off after it
        // was sent may have committed, so sending a draft again could store it twice.
        if (isDatabaseAway(error)) {
          const answer = neverReachedDatabase(error) ? (error as Error) : new CommitOutcomeUnknown(error);
          for (const g of group) g.reject(answer);
          continue;
        }
        // The statement is atomic: none of the group was stored. One bad value must not fail the
        // others (each is its own request, or its own batch entry), so each goes in on its own.
        for (const g of group) {
          try {
            g.resolve((await this.#insertGroup(workspace, [g.draft]))[0] as StoredPayment);
          } catch (alone) {
            g.reject(alone as Error);
          }
        }
      }
    }
    this.#insertQueues.delete(workspace);
  }

  async #insertGroup(workspace: string, drafts: readonly NewPayment[]): Promise<StoredPayment[]> {
    // One statement, so one implicit transaction: take the workspace's next seqs and versions under its
    // row lock, insert the payments, each carrying its first history entry (migration 0007: one row per
    // create, not two). A time worked out with this process's last reading of the clock (clockOffsetMs)
    // is moved by however far the clock has moved since, as the statement sees it: a create sent after a
    // clock move committed carries the moved time without a read of its own. Creation times are then
    // raised to the workspace's latest (never lowered), so they never go backwards along the listing; a
    // countdown that started at creation moves with it.
    const { rows } = await this.#pool.query<{ base_seq: string; base_version: string; created_at: string }>({
      name: "payspec_insert_payments",
      text: `WITH clock AS (
         SELECT coalesce((SELECT offset_ms FROM clock_offsets WHERE scope = $4), 0) AS offset_ms
       ), given AS (
         SELECT t.*, t.asked_at + coalesce(clock.offset_ms - t.offset_used, 0) AS asked_now
         FROM ROWS FROM (json_to_recordset($3::json) AS (id text, amount bigint, currency text, method text,
                           from_account text, to_account text, description text, reference text, asked_at bigint,
                           status text, asked_countdown bigint, cause text, offset_used bigint, actor text))
           WITH ORDINALITY AS t(id, amount, currency, method, from_account, to_account, description, reference,
                                asked_at, status, asked_countdown, cause, offset_used, actor, n),
           clock
       ), ws AS (
         UPDATE workspaces SET payment_count = payment_count + $2, version = version + $2,
           previous_created_at = last_created_at,
           last_created_at = greatest(last_created_at, (SELECT max(asked_now) FROM given))
         WHERE workspace = $1
         RETURNING payment_count - $2 AS base_seq, version - $2 AS base_version, previous_created_at AS floor
       ), input AS (
         SELECT given.*, ws.base_seq, ws.base_version,
                greatest(ws.floor, max(asked_now) OVER (ORDER BY n)) AS created_at
         FROM given, ws
       ), payment AS (
         INSERT INTO payments (workspace, seq, id, amount, currency, method, from_account, to_account,
                               description, reference, status, created_at, countdown_from, version,
                               created_status, created_cause, created_version, created_actor)
         SELECT $1, base_seq + n, id, amount, currency, method, from_account, to_account,
                description, reference, status, created_at, asked_countdown + (created_at - asked_at),
                base_version + n, status, cause, base_version + n, actor FROM input
       )
       SELECT base_seq, base_version, created_at FROM input ORDER BY n`,
      // One JSON text, not a PostgreSQL array per column: node-postgres escapes arrays element by
      // element in JavaScript, and PostgreSQL parses thirteen of them; JSON.stringify is native.
      values: [workspace, drafts.length, JSON.stringify(drafts.map(insertedFields)), workspaceScope(workspace)],
    });
    if (!rows[0]) throw new Error(`Unknown workspace ${workspace}`);
    const baseSeq = num(rows[0].base_seq);
    const baseVersion = num(rows[0].base_version);
    return drafts.map((draft, i) =>
      insertedPayment(draft, baseSeq + i + 1, num((rows[i] as { created_at: string }).created_at), baseVersion + i + 1),
    );
  }

  async payment(workspace: string, id: string): Promise<StoredPayment | undefined> {
    return this.#payments.get(workspace, id);
  }

  paymentWithElapsed(workspace: string, id: string, asOf: number, delayMs: number) {
    // Every id asked maps to an answer (see #readPaymentsWithElapsed): never undefined.
    return this.#paymentsWithElapsed.get(probeKey(workspace, delayMs), id, asOf) as Promise<
      WithElapsed<PaymentRecord | undefined>
    >;
  }

  accountsWithElapsed(workspace: string, asOf: number, delayMs: number) {
    return this.#accountsWithElapsed.get(probeKey(workspace, delayMs), asOf);
  }

  /** The payments with these ids as records (the API shows no history), with elapsedSeen: every id asked maps to an answer. */
  async #readPaymentsWithElapsed(
    key: string,
    ids: readonly string[],
    asOf: number,
  ): Promise<ReadonlyMap<string, WithElapsed<PaymentRecord | undefined>>> {
    const { found, offsetMs, due } = await this.#readWithElapsed<PaymentRow>(
      "payspec_payments_with_elapsed",
      PAYMENT_READS.payspec_payments_with_elapsed,
      key,
      [ids],
      asOf,
    );
    const byId = new Map(found.map((row) => [row.id, toRecord(row)]));
    return new Map(ids.map((id) => [id, { value: byId.get(id), offsetMs, due }]));
  }

  /**
   * A statement that reads with elapsedSeen (postgres-read-statements.ts), for the workspace and delay
   * of probe key `key`, as of `asOf`: its values are the workspace, `params`, then elapsedSeen's own.
   * The rows it found (not the row of nulls its join gives when it finds none), and what it saw.
   */
  async #readWithElapsed<R extends { id: string }>(
    name: string,
    text: string,
    key: string,
    params: readonly unknown[],
    asOf: number,
  ): Promise<{ found: R[]; offsetMs: number; due: boolean }> {
    const { workspace, delayMs } = probeKeyParts(key);
    const { rows } = await this.#pool.query<ElapsedSeenRow & (R | { id: null })>({
      name,
      text,
      values: [workspace, ...params, workspaceScope(workspace), ...elapsedMoments(asOf, delayMs)],
    });
    const seen = rows[0] as ElapsedSeenRow;
    const found = rows.filter((row): row is ElapsedSeenRow & R => row.id !== null);
    return { found, offsetMs: num(seen.offset_ms), due: seen.due };
  }

  /** The payments of a workspace with these ids, each with its whole history, by id. */
  async #paymentsById(workspace: string, ids: readonly string[]): Promise<ReadonlyMap<string, StoredPayment>> {
    const { rows } = await this.#pool.query<PaymentRow & CreationRow & { changes: HistoryJson[] | null }>({
      name: "payspec_payments_by_id",
      text: PAYMENT_READS.payspec_payments_by_id,
      values: [workspace, ids],
    });
    return new Map(rows.map((row) => [row.id, toStoredPayment(row)]));
  }

  /**
   * The status change and the balance movement it implies, inside the caller's transaction, which holds
   * the workspace's lock. False (nothing written) when an account is short.
   */
  async #apply(
    client: pg.ClientBase,
    workspace: string,
    payment: PaymentRecord,
    to: PaymentStatus,
    at: number,
    cause: TransitionCause,
    actor?: Actor,
  ) {
    const moves = MONEY_MOVED.has(to) && !MONEY_MOVED.has(payment.status);
    const undoes = !MONEY_MOVED.has(to) && MONEY_MOVED.has(payment.status);
    if (moves || undoes) {
      const debit = moves ? payment.from_account : payment.to_account;
      const credit = moves ? payment.to_account : payment.from_account;
      const taken = await client.query(
        `UPDATE accounts SET balance_minor = balance_minor - $3
         WHERE workspace = $1 AND id = $2 AND balance_minor >= $3`,
        [workspace, debit, payment.amount],
      );
      if (taken.rowCount !== 1) return false;
      await client.query("UPDATE accounts SET balance_minor = balance_minor + $3 WHERE workspace = $1 AND id = $2", [
        workspace,
        credit,
        payment.amount,
      ]);
    }
    // History is append-only and in time order, whatever the clock did (a rewind, another instance).
    const last = await client.query<{ at: string }>(
      `SELECT GREATEST(p.created_at, (SELECT max(h.at) FROM payment_history h WHERE h.workspace = $1 AND h.seq = $2)) AS at
       FROM payments p WHERE p.workspace = $1 AND p.seq = $2`,
      [workspace, payment.seq],
    );
    at = Math.max(at, Number(last.rows[0]?.at ?? at));
    let completedAt = undoes ? undefined : payment.completedAt;
    let settledAt = undoes ? undefined : payment.settledAt;
    if (MONEY_MOVED.has(to)) completedAt ??= at;
    if (to === "settled" || to === "reconciled") settledAt ??= at;
    const countdownFrom = restartsCountdown(payment, to, cause) ? at : payment.countdownFrom;
    await client.query(
      `WITH ws AS (UPDATE workspaces SET version = version + 1 WHERE workspace = $1 RETURNING version),
       payment AS (
         UPDATE payments SET status = $3, completed_at = $4, settled_at = $5, countdown_from = $8, version = ws.version
         FROM ws WHERE payments.workspace = $1 AND payments.seq = $2
       )
       INSERT INTO payment_history (workspace, seq, version, status, at, cause, completed_at, settled_at, actor)
       SELECT $1, $2, ws.version, $3, $6, $7, $4, $5, $9 FROM ws`,
      [
        workspace,
        payment.seq,
        to,
        completedAt ?? null,
        settledAt ?? null,
        at,
        cause,
        countdownFrom ?? null,
        actor ?? null,
      ],
    );
    return true;
  }

  async transition(
    workspace: string,
    id: string,
    from: readonly PaymentStatus[] | "any",
    to: PaymentStatus,
    at: number,
    cause: TransitionCause,
    actor?: Actor,
  ): Promise<TransitionResult> {
    const outcome = await inTransaction(this.#pool, async (client) => {
      await lockWorkspace(client, workspace);
      const { rows } = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE workspace = $1 AND id = $2`,
        [workspace, id],
      );
      if (!rows[0]) return "not_found" as const;
      const payment = toRecord(rows[0]);
      if (from !== "any" && !from.includes(payment.status)) return "status" as const;
      if (!(await this.#apply(client, workspace, payment, to, at, cause, actor))) return "funds" as const;
      return "ok" as const;
    });
    // Read after commit: what every instance now sees.
    const payment = await this.payment(workspace, id);
    if (!payment) return { ok: false, reason: "not_found", payment: undefined };
    if (outcome === "ok") return { ok: true, payment };
    if (outcome === "not_found") return { ok: false, reason: "not_found", payment: undefined };
    return { ok: false, reason: outcome, payment };
  }

  async dueBacklog(workspace: string, now: number, delayMs: number): Promise<number> {
    // The completion index's own range: as many entries as are due, however many payments there are.
    const { rows } = await this.#pool.query<{ n: string }>({
      name: "payspec_due_backlog",
      text: `SELECT count(*) AS n FROM payments
             WHERE workspace = $1 AND status IN (${AWAITING_SQL}) AND countdown_from <= $2`,
      values: [workspace, now - delayMs],
    });
    return num(rows[0]?.n ?? 0);
  }

  somethingElapsed(workspace: string, now: number, delayMs: number): Promise<boolean> {
    return this.#elapsedProbes.get(probeKey(workspace, delayMs), now);
  }

  async completeDue(workspace: string, now: number, delayMs: number, chunks = Number.POSITIVE_INFINITY): Promise<void> {
    // Every request asks; nearly always nothing is due, and that answer needs no lock.
    const dueBy = now - delayMs;
    const due = await this.#pool.query(probe("payspec_due_probe", [workspace, dueBy]));
    if (due.rowCount === 0) return;
    // In chunks, each its own transaction under the workspace's lock: other requests of the workspace
    // get the lock between chunks, and each chunk costs a fixed number of statements, so the whole
    // costs time linear in the number of payments (one row updated thousands of times in a single
    // transaction costs quadratic time in PostgreSQL: every update walks the row's version chain).
    let done = 0;
    while (++done <= chunks && (await this.#completeChunk(workspace, dueBy, delayMs))) {
      // The event loop, too, gets a turn between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Completes the next COMPLETION_CHUNK due payments; whether there may be more. */
  async #completeChunk(workspace: string, dueBy: number, delayMs: number): Promise<boolean> {
    return inTransaction(this.#pool, async (client) => {
      // Under the workspace's lock, re-read: another instance may have completed them meanwhile.
      await lockWorkspace(client, workspace);
      const { rows } = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments
         WHERE workspace = $1 AND status IN (${AWAITING_SQL}) AND countdown_from <= $2
         ORDER BY countdown_from, seq LIMIT ${COMPLETION_CHUNK}`,
        [workspace, dueBy],
      );
      if (rows.length === 0) return false;
      const accounts = await client.query<{ id: string; balance_minor: string }>(
        "SELECT id, balance_minor FROM accounts WHERE workspace = $1",
        [workspace],
      );
      const balances = new Map(accounts.rows.map((a) => [a.id, num(a.balance_minor)]));
      const moved = new Set<string>();
      // The balances as each payment becomes due, oldest first: completed when the debit account
      // covers it, failed otherwise.
      const outcomes = rows.map((row) => {
        const payment = toRecord(row);
        const dueAt = (payment.countdownFrom as number) + delayMs;
        const debit = balances.get(payment.from_account);
        const credit = balances.get(payment.to_account);
        if (debit === undefined || credit === undefined || debit < payment.amount) {
          const shortfall: Shortfall = {
            account: payment.from_account,
            heldMinor: debit ?? 0,
            neededMinor: payment.amount,
          };
          return {
            seq: payment.seq,
            status: "failed",
            at: dueAt,
            completedAt: null,
            shortfall: JSON.stringify(shortfall),
          };
        }
        balances.set(payment.from_account, debit - payment.amount);
        balances.set(payment.to_account, (balances.get(payment.to_account) as number) + payment.amount);
        moved.add(payment.from_account).add(payment.to_account);
        return { seq: payment.seq, status: "completed", at: dueAt, completedAt: dueAt, shortfall: null };
      });
      const column = <T>(pick: (o: (typeof outcomes)[number]) => T) => outcomes.map(pick);
      await changeChunk(client, "completion", [
        workspace,
        outcomes.length,
        column((o) => o.seq),
        column((o) => o.status),
        column((o) => o.at),
        column((o) => o.completedAt),
        column((o) => o.shortfall),
      ]);
      if (moved.size > 0) {
        const ids = [...moved];
        await client.query(
          `UPDATE accounts a SET balance_minor = u.balance FROM unnest($2::text[], $3::bigint[]) AS u(id, balance)
           WHERE a.workspace = $1 AND a.id = u.id`,
          [workspace, ids, ids.map((id) => balances.get(id))],
        );
      }
      return rows.length === COMPLETION_CHUNK;
    });
  }

  async settleDue(workspace: string, now: number, chunks = Number.POSITIVE_INFINITY): Promise<number> {
    const cutoff = istanbulMidnightAtOrBefore(now);
    const due = await this.#pool.query(probe("payspec_settlement_probe", [workspace, cutoff]));
    if (due.rowCount === 0) return 0;
    let settled = 0;
    for (let done = 1; ; done++) {
      const chunk = await this.#settleChunk(workspace, cutoff);
      settled += chunk;
      if (chunk < SETTLEMENT_CHUNK || done >= chunks) return settled;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Settles the next SETTLEMENT_CHUNK due payments under the workspace's lock, in one statement; how many. */
  async #settleChunk(workspace: string, cutoff: number): Promise<number> {
    return inTransaction(this.#pool, async (client) => {
      // The workspace's lock and its settlement switch in one round trip; no workspace, nothing to settle.
      const { rows } = await client.query<{ off: boolean }>(
        `SELECT ${AUTO_SETTLEMENT_OFF} AS off FROM workspaces WHERE workspace = $1 FOR UPDATE`,
        [workspace],
      );
      if (rows[0]?.off !== false) return 0;
      // Re-read under the lock: another instance may have settled them meanwhile.
      const settled = await changeChunk(client, "settlement", [workspace, cutoff]);
      return settled.rowCount ?? 0;
    });
  }

  reconcileStatement<R>(
    workspace: string,
    query: StatementCandidatesQuery,
    at: number,
    decide: DecideReconciliation<R>,
    keep: KeepReconciliation<R>,
  ): Promise<R> {
    // One transaction under the workspace's lock: the caller's record and every reconciliation commit
    // together, and two statements at once (any instances) take turns, so nothing reconciles twice.
    return inTransaction(this.#pool, async (client) => {
      await lockWorkspace(client, workspace);
      // References compared as foldForSearch folds them: the same table in SQL as in JavaScript.
      const byReference = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE workspace = $1 AND reference IS NOT NULL
           AND translate(normalize(btrim(reference), NFC), $3, $4) = ANY($2::text[])`,
        [workspace, query.referenceKeys, FOLD_FROM, FOLD_TO],
      );
      const settled = await client.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments
         WHERE workspace = $1 AND status = 'settled' AND (completed_at + ${ISTANBUL_OFFSET_MS}) / ${DAY_MS} <= $2
           AND (settled_at + ${ISTANBUL_OFFSET_MS}) / ${DAY_MS} >= $3`,
        [workspace, query.completedByDay, query.settledFromDay],
      );
      const { reconcile, result } = decide({
        byReference: byReference.rows.map(toRecord),
        settledOnValueDates: settled.rows.map(toRecord),
      });
      await markReconciled(
        client,
        workspace,
        reconcile.map((p) => p.seq),
        at,
      );
      return keep(result, { sql: client });
    });
  }

  async snapshot(workspace: string): Promise<Snapshot> {
    const { rows } = await this.#pool.query<{ payment_count: string; version: string }>(
      "SELECT payment_count, version FROM workspaces WHERE workspace = $1",
      [workspace],
    );
    const row = rows[0];
    return row ? { seq: num(row.payment_count), version: num(row.version) } : { seq: 0, version: 0 };
  }

  async list(workspace: string, query: PaymentQuery): Promise<{ items: PaymentRecord[]; total?: number }> {
    // A date range is a run of seqs (see #seqRange): the listing then reads by its key.
    const range = await this.#seqRange(workspace, query.createdFrom, query.createdTo);
    const upTo = Math.min(query.snapshotSeq, range.upTo);
    type Row = PaymentRow & {
      changed_since: boolean;
      then_status: string;
      then_completed_at: string | null;
      then_settled_at: string | null;
    };
    const seqs = { after: Math.max(query.afterSeq, range.after), upTo };
    // The total counts from the listing's start, up to totalUpToSeq when a page starts below it.
    const counted = countedQuery(query);
    const countedSeqs = { after: range.after, upTo: Math.min(counted.snapshotSeq, range.upTo) };
    // A search's page and its total come from one scan of its matches (searchPageStatement).
    const totalWithPage = query.countTotal && query.limit > 0 && query.search !== undefined;
    // A count alone (the overview's total) asks for no rows: no statement for them.
    const rows =
      query.limit === 0
        ? []
        : (
            await this.#pool.query<Row & { listing_total?: string }>(
              statementQuery(
                totalWithPage
                  ? searchPageStatement(workspace, query, { counted: countedSeqs, page: seqs }, query.limit)
                  : listingStatement(workspace, query, seqs, query.limit),
              ),
            )
          ).rows;
    const items = rows.map((row) =>
      row.changed_since
        ? toRecord({
            ...row,
            status: row.then_status,
            completed_at: row.then_completed_at,
            settled_at: row.then_settled_at,
          })
        : toRecord(row),
    );
    if (!query.countTotal) return { items };
    // The total rides on the page's rows. No row on a page that is the whole listing: it holds none.
    const pageIsListing = seqs.after === countedSeqs.after && seqs.upTo === countedSeqs.upTo;
    if (totalWithPage && (rows[0] || pageIsListing)) return { items, total: num(rows[0]?.listing_total ?? 0) };
    return { items, total: await this.#count(workspace, counted, countedSeqs) };
  }

  /**
   * The seqs a date range holds, as `after < seq <= upTo`: creation times never go backwards along
   * the listing (an insert raises its time to the one before it, migration 0002), so the payments of
   * a range are one run of seqs, found by two probes of the creation-time index.
   */
  async #seqRange(workspace: string, from?: number, to?: number): Promise<{ after: number; upTo: number }> {
    if (from === undefined && to === undefined) return { after: 0, upTo: Number.POSITIVE_INFINITY };
    const { rows } = await this.#pool.query<{ first: string | null; last: string | null }>({
      name: "payspec_seq_range",
      text: `SELECT
        (SELECT seq FROM payments WHERE workspace = $1 AND created_at >= $2 ORDER BY created_at, seq LIMIT 1) AS first,
        (SELECT seq FROM payments WHERE workspace = $1 AND created_at <= $3 ORDER BY created_at DESC, seq DESC LIMIT 1) AS last`,
      values: [workspace, from ?? Number.MIN_SAFE_INTEGER, to ?? Number.MAX_SAFE_INTEGER],
    });
    const first = rows[0]?.first;
    const last = rows[0]?.last;
    if (first === null || first === undefined || last === null || last === undefined) return { after: 0, upTo: 0 };
    return { after: num(first) - 1, upTo: num(last) };
  }

  /** How many payments matched status, method and account at a snapshot (see keptCountStatement). */
  async #countKept(workspace: string, query: PaymentQuery): Promise<number> {
    const counting = keptCountStatement(workspace, query);
    const { rows } = await this.#pool.query<{ n: string }>(statementQuery(counting));
    return num(rows[0]?.n ?? 0);
  }

  /**
   * A listing's exact total at its snapshot, reading as little as it can. Seqs are dense (1 to the
   * snapshot's, a workspace's payments are never deleted one by one), so with no filter but dates it
   * is the length of its run of seqs, read from no row at all. Status, method and account, alone or
   * together, read the kept counts. With a search or a date range beside them, filters that do not
   * depend on status count the rows that match as they are (those fields never change); a status
   * filter needs each matching row's status as of the snapshot.
   */
  async #count(
    workspace: string,
    query: PaymentQuery,
    /** The seqs the listing's dates and snapshot hold: `after < seq <= upTo`. */
    seqs: Seqs,
  ): Promise<number> {
    const dated = query.createdFrom !== undefined || query.createdTo !== undefined;
    const byStatus = query.status !== undefined || query.awaitingApproval === true;
    const byFields =
      query.method !== undefined ||
      query.account !== undefined ||
      query.reference !== undefined ||
      query.search !== undefined;
    if (!byStatus && !byFields) return Math.max(0, seqs.upTo - seqs.after);
    if (!dated && query.search === undefined && query.reference === undefined && query.awaitingApproval !== true)
      return this.#countKept(workspace, query);
    const counting = byStatus
      ? listingCountStatement(workspace, query, seqs)
      : fieldsCountStatement(workspace, query, seqs);
    const { rows } = await this.#pool.query<{ n: string }>(statementQuery(counting));
    return num(rows[0]?.n ?? 0);
  }
}
