import { ApiFailure } from "@payspec/server-kit";
import { t } from "../../../infrastructure/i18n/locale.js";
import { foldForSearch } from "../../../infrastructure/text/search-fold.js";
import {
  istanbulDayNumber,
  istanbulMidnightAfter,
  istanbulMidnightAtOrBefore,
} from "../../../infrastructure/time/istanbul-time.js";
import {
  type Actor,
  AWAITING_COMPLETION,
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
  type WorkspaceSeed,
} from "../payments-store.js";
import { DueQueue } from "./due-queue.js";
import { IdIndex } from "./id-index.js";
import { KeptCounts } from "./kept-counts.js";
import { SearchStretches } from "./search-stretches.js";
import { StatusStretches } from "./status-stretches.js";
import { firstIndexOf, lastIndexOf, stretchOf } from "./stretches.js";

interface Workspace {
  readonly accounts: Map<string, StoredAccount>;
  /** In seq order: payments[seq - 1]. */
  readonly payments: StoredPayment[];
  readonly byId: IdIndex<StoredPayment>;
  /** Payments whose completion countdown runs, next due on top. */
  readonly due: DueQueue;
  /** Payments now `completed`: what settlement looks at. */
  readonly completed: Set<StoredPayment>;
  /** No payment in `completed` completed before this (a lower bound: settlement looks only past it). */
  earliestCompletedAt: number;
  /** Bumped by every insert and status change; listings read statuses as of a version. */
  version: number;
  /** The accounts as `keptAccounts` hands them out, made again after a balance moves. */
  accountList: readonly StoredAccount[] | undefined;
  /** Its payments counted by status, method and accounts: listings' totals without a scan. */
  readonly counts: KeptCounts;
  /** Where along the listing each status is: a status filter's page without reading every payment. */
  readonly stretches: StatusStretches;
  /** Which pieces of text each stretch holds: a search's page without reading every payment. */
  readonly searchStretches: SearchStretches;
}

/** Due payments completed before the event loop gets a turn. */
const COMPLETION_CHUNK = 2_000;

type MutablePayment = StoredPayment & { history: StatusChange[] };

/** The first index whose createdAt is at or after `ms` (payments are in creation order). */
function firstAtOrAfter(payments: readonly StoredPayment[], ms: number): number {
  let lo = 0;
  let hi = payments.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((payments[mid] as StoredPayment).createdAt < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The payment as it was at `version`: the payment itself when nothing changed since. */
function asOf(payment: StoredPayment, version: number): StoredPayment {
  const { history } = payment;
  if ((history[history.length - 1] as StatusChange).version <= version) return payment;
  let i = history.length - 1;
  while (i > 0 && (history[i] as StatusChange).version > version) i--;
  const then = history[i] as StatusChange;
  const { completedAt: _c, settledAt: _s, ...rest } = payment;
  return {
    ...rest,
    status: then.status,
    history: history.slice(0, i + 1),
    ...(then.completedAt === undefined ? {} : { completedAt: then.completedAt }),
    ...(then.settledAt === undefined ? {} : { settledAt: then.settledAt }),
  };
}

/** What the dashboard's search looks in: the reference and the description, folded. */
function searchText(p: PaymentRecord): string {
  return foldForSearch(`${p.reference ?? ""}\n${p.description ?? ""}`);
}

/** The listing's filters other than position and dates. */
function matches(p: PaymentRecord, query: PaymentQuery): boolean {
  return (
    (!query.status || p.status === query.status) &&
    (!query.method || p.method === query.method) &&
    (!query.account || p.from_account === query.account || p.to_account === query.account) &&
    (query.reference === undefined || p.reference === query.reference) &&
    (query.search === undefined || searchText(p).includes(query.search)) &&
    (!query.awaitingApproval || (p.status === "pending" && p.countdownFrom === undefined))
  );
}

function emptyWorkspace(seed: WorkspaceSeed): Workspace {
  const payments: StoredPayment[] = [];
  return {
    accounts: new Map(seed.accounts.map((a) => [a.id, { ...a }])),
    payments,
    byId: new IdIndex(payments),
    due: new DueQueue(),
    completed: new Set(),
    earliestCompletedAt: Number.POSITIVE_INFINITY,
    version: 0,
    accountList: undefined,
    counts: new KeptCounts(),
    stretches: new StatusStretches(),
    searchStretches: new SearchStretches(),
  };
}

/** The in-memory store: fast, per-process, gone on restart. */
/**
 * The refusal of a create once the memory store holds its bound: a 400 (the spec declares no other
 * status for a create the service will not take) that says how to go on.
 */
function memoryFull(maxPayments: number): ApiFailure {
  return new ApiFailure(
    "invalid_request",
    t(
      `This sandbox keeps its payments in memory and holds its limit of ${maxPayments.toLocaleString("en-US")} (PAYSPEC_MEMORY_MAX_PAYMENTS). Reset a workspace (POST /_sandbox/reset) to make room, raise the limit, or run the sandbox on PostgreSQL (PAYSPEC_DATABASE_URL), which keeps any number.`,
      `Bu sandbox ödemeleri bellekte tutuyor ve ${maxPayments.toLocaleString("tr-TR")} ödemelik sınırına ulaştı (PAYSPEC_MEMORY_MAX_PAYMENTS). Yer açmak için bir çalışma alanını sıfırlayın (POST /_sandbox/reset), sınırı yükseltin ya da sandbox'ı PostgreSQL ile çalıştırın (PAYSPEC_DATABASE_URL); PostgreSQL'in böyle bir sınırı yok.`,
    ),
  );
}

export class MemoryPaymentsStore implements PaymentsStore {
  #workspaces = new Map<string, Workspace>();
  readonly #autoSettlement: { peek(workspace: string): boolean };
  readonly #maxPayments: number;
  /** Payments kept, every workspace together (what the bound counts). */
  #kept = 0;

  /**
   * `autoSettlement`: the settlement feature's switch, read at once (settlement waits while it is off).
   * `maxPayments`: the most payments kept, every workspace together; a process's memory is the limit.
   */
  constructor(
    autoSettlement: { peek(workspace: string): boolean } = { peek: () => true },
    { maxPayments = Number.POSITIVE_INFINITY }: { readonly maxPayments?: number } = {},
  ) {
    this.#autoSettlement = autoSettlement;
    this.#maxPayments = maxPayments;
  }

  #ws(workspace: string): Workspace {
    const ws = this.#workspaces.get(workspace);
    if (!ws) throw new Error(`Unknown workspace ${workspace}`);
    return ws;
  }

  async reset(seeds: readonly WorkspaceSeed[]): Promise<void> {
    this.#workspaces = new Map(seeds.map((seed) => [seed.workspace, emptyWorkspace(seed)]));
    this.#kept = 0;
  }

  async ensureWorkspaces(seeds: readonly WorkspaceSeed[]): Promise<string[]> {
    const created = seeds.filter((seed) => !this.#workspaces.has(seed.workspace));
    for (const seed of created) this.#workspaces.set(seed.workspace, emptyWorkspace(seed));
    return created.map((seed) => seed.workspace);
  }

  async resetWorkspace(seed: WorkspaceSeed): Promise<void> {
    this.#kept -= this.#workspaces.get(seed.workspace)?.payments.length ?? 0;
    this.#workspaces.set(seed.workspace, emptyWorkspace(seed));
  }

  async accounts(workspace: string) {
    return this.keptAccounts(workspace);
  }

  keptAccounts(workspace: string): readonly StoredAccount[] {
    const ws = this.#ws(workspace);
    ws.accountList ??= Object.freeze([...ws.accounts.values()]);
    return ws.accountList;
  }

  async account(workspace: string, id: string) {
    return this.#ws(workspace).accounts.get(id);
  }

  /** Puts the payment on the completion schedule when it is waiting for completion with a countdown. */
  #schedule(ws: Workspace, payment: StoredPayment) {
    if (payment.countdownFrom !== undefined && AWAITING_COMPLETION.has(payment.status)) {
      ws.due.push(payment.countdownFrom, payment.seq);
    }
  }

  async insert(workspace: string, draft: NewPayment): Promise<StoredPayment> {
    const ws = this.#ws(workspace);
    if (this.#kept >= this.#maxPayments) throw memoryFull(this.#maxPayments);
    this.#kept++;
    ws.version++;
    // Creation times never go backwards along the listing (as on PostgreSQL, where instances' clocks
    // differ): a create that computed its time before an earlier-numbered one is raised to it.
    const floor = ws.payments[ws.payments.length - 1]?.createdAt ?? 0;
    const payment = insertedPayment(draft, ws.payments.length + 1, Math.max(floor, draft.createdAt), ws.version);
    ws.payments.push(payment);
    ws.byId.add(ws.payments.length - 1);
    ws.counts.add(payment);
    ws.stretches.add(ws.payments.length - 1, payment.status);
    ws.searchStretches.add(ws.payments.length - 1, searchText(payment));
    this.#schedule(ws, payment);
    return payment;
  }

  async payment(workspace: string, id: string) {
    return this.#ws(workspace).byId.get(id);
  }

  /** Applies a status change and the balance movement it implies, or nothing when an account is short. */
  #apply(
    ws: Workspace,
    payment: StoredPayment,
    to: StoredPayment["status"],
    at: number,
    cause: TransitionCause,
    shortfall?: Shortfall,
    actor?: Actor,
  ) {
    const moves = MONEY_MOVED.has(to) && !MONEY_MOVED.has(payment.status);
    const undoes = !MONEY_MOVED.has(to) && MONEY_MOVED.has(payment.status);
    if (moves || undoes) {
      const debit = ws.accounts.get(moves ? payment.from_account : payment.to_account);
      const credit = ws.accounts.get(moves ? payment.to_account : payment.from_account);
      if (!debit || !credit || debit.balanceMinor < payment.amount) return false;
      debit.balanceMinor -= payment.amount;
      credit.balanceMinor += payment.amount;
      ws.accountList = undefined;
    }
    const p = payment as MutablePayment;
    // History is append-only and in time order, whatever the clock did (a rewind, another instance).
    at = Math.max(at, (p.history[p.history.length - 1] as StatusChange).at);
    ws.counts.remove(p);
    const from = p.status;
    p.status = to;
    if (restartsCountdown(p, to, cause)) p.countdownFrom = at;
    ws.counts.add(p);
    // Back in a status that completes (forced, or approved): completion must look at it once more.
    this.#schedule(ws, p);
    if (undoes) {
      p.completedAt = undefined;
      p.settledAt = undefined;
    }
    if (MONEY_MOVED.has(to)) p.completedAt ??= at;
    if (to === "settled" || to === "reconciled") p.settledAt ??= at;
    if (to === "completed") {
      ws.completed.add(p);
      ws.earliestCompletedAt = Math.min(ws.earliestCompletedAt, p.completedAt as number);
    } else {
      ws.completed.delete(p);
    }
    ws.version++;
    ws.counts.changed(ws.version, p.seq - 1);
    ws.stretches.move(p.seq - 1, from, to, ws.version);
    p.history.push({
      status: to,
      at,
      cause,
      version: ws.version,
      ...(p.completedAt === undefined ? {} : { completedAt: p.completedAt }),
      ...(p.settledAt === undefined ? {} : { settledAt: p.settledAt }),
      ...(shortfall ? { shortfall } : {}),
      ...(actor ? { actor } : {}),
    });
    return true;
  }

  async transition(
    workspace: string,
    id: string,
    from: readonly StoredPayment["status"][] | "any",
    to: StoredPayment["status"],
    at: number,
    cause: TransitionCause,
    actor?: Actor,
  ): Promise<TransitionResult> {
    const ws = this.#ws(workspace);
    const payment = ws.byId.get(id);
    if (!payment) return { ok: false, reason: "not_found", payment: undefined };
    if (from !== "any" && !from.includes(payment.status)) return { ok: false, reason: "status", payment };
    if (!this.#apply(ws, payment, to, at, cause, undefined, actor)) return { ok: false, reason: "funds", payment };
    return { ok: true, payment };
  }

  async completeDue(workspace: string, now: number, delayMs: number, chunks = Number.POSITIVE_INFINITY): Promise<void> {
    const ws = this.#ws(workspace);
    let done = 0;
    while (this.#somethingDue(ws, now, delayMs)) {
      // Thousands falling due at once: other requests (other workspaces' too) get a turn between
      // chunks, and the schedule is looked at afresh after it (another completion may have run).
      if (++done % COMPLETION_CHUNK === 0) {
        if (done / COMPLETION_CHUNK >= chunks) return;
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const countdownFrom = ws.due.firstCountdownFrom();
      const payment = ws.payments[ws.due.firstSeq() - 1] as StoredPayment;
      ws.due.pop();
      // A stale entry: the payment moved on, or its countdown restarted (and has its own entry).
      if (!AWAITING_COMPLETION.has(payment.status) || payment.countdownFrom !== countdownFrom) continue;
      const dueAt = countdownFrom + delayMs;
      if (!this.#apply(ws, payment, "completed", dueAt, "completion")) {
        const held = ws.accounts.get(payment.from_account)?.balanceMinor ?? 0;
        const shortfall = { account: payment.from_account, heldMinor: held, neededMinor: payment.amount };
        this.#apply(ws, payment, "failed", dueAt, "completion", shortfall);
      }
    }
  }

  async dueBacklog(workspace: string, now: number, delayMs: number): Promise<number> {
    const ws = this.#ws(workspace);
    let due = 0;
    // An entry counts while it is its payment's current countdown and the payment still awaits completion.
    ws.due.forEachDueBy(now - delayMs, (countdownFrom, seq) => {
      const payment = ws.payments[seq - 1];
      if (payment && AWAITING_COMPLETION.has(payment.status) && payment.countdownFrom === countdownFrom) due++;
    });
    return due;
  }

  nothingElapsed(workspace: string, now: number, delayMs: number): boolean {
    const ws = this.#ws(workspace);
    return (
      !this.#somethingDue(ws, now, delayMs) && !this.#settlementDue(workspace, ws, istanbulMidnightAtOrBefore(now))
    );
  }

  /** Whether the schedule's first entry has fallen due (it may be stale: completeDue checks). */
  #somethingDue(ws: Workspace, now: number, delayMs: number): boolean {
    return ws.due.firstCountdownFrom() + delayMs <= now;
  }

  /** Whether a completed payment waits for a cut-off at or before `cutoff`. */
  #settlementDue(workspace: string, ws: Workspace, cutoff: number): boolean {
    return ws.earliestCompletedAt < cutoff && this.#autoSettlement.peek(workspace);
  }

  async settleDue(workspace: string, now: number, chunks = Number.POSITIVE_INFINITY): Promise<number> {
    const ws = this.#ws(workspace);
    const cutoff = istanbulMidnightAtOrBefore(now);
    // Every request asks; nearly always the earliest completion is after the last cut-off.
    if (!this.#settlementDue(workspace, ws, cutoff)) return 0;
    const due = [...ws.completed]
      .filter((p) => (p.completedAt as number) < cutoff)
      .sort((a, b) => (a.completedAt as number) - (b.completedAt as number) || a.seq - b.seq)
      .slice(0, chunks * COMPLETION_CHUNK);
    let settled = 0;
    for (const payment of due) {
      if (++settled % COMPLETION_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
      // A request of this workspace may have moved it while this one yielded.
      if (payment.status !== "completed") continue;
      this.#apply(ws, payment, "settled", istanbulMidnightAfter(payment.completedAt as number), "settlement");
    }
    ws.earliestCompletedAt = Number.POSITIVE_INFINITY;
    for (const p of ws.completed) ws.earliestCompletedAt = Math.min(ws.earliestCompletedAt, p.completedAt as number);
    return due.length;
  }

  async reconcileStatement<R>(
    workspace: string,
    query: StatementCandidatesQuery,
    at: number,
    decide: DecideReconciliation<R>,
    keep: KeepReconciliation<R>,
  ): Promise<R> {
    const ws = this.#ws(workspace);
    // No await until `keep` has run its synchronous part: the run sees one state and is applied whole.
    const keys = new Set(query.referenceKeys);
    const byReference = ws.payments.filter(
      (p) => p.reference !== undefined && keys.has(foldForSearch(p.reference.trim())),
    );
    const settledOnValueDates = ws.payments.filter(
      (p) =>
        p.status === "settled" &&
        istanbulDayNumber(p.completedAt as number) <= query.completedByDay &&
        istanbulDayNumber(p.settledAt as number) >= query.settledFromDay,
    );
    const { reconcile, result } = decide({ byReference, settledOnValueDates });
    for (const { id } of reconcile) {
      const payment = ws.byId.get(id);
      if (payment) this.#apply(ws, payment, "reconciled", at, "reconciliation");
    }
    return keep(result, { sql: undefined });
  }

  async snapshot(workspace: string): Promise<Snapshot> {
    const ws = this.#ws(workspace);
    return { seq: ws.payments.length, version: ws.version };
  }

  async list(workspace: string, query: PaymentQuery) {
    const ws = this.#ws(workspace);
    const { payments } = ws;
    // Creation order is seq order and time order, so date bounds and the cursor become index bounds.
    const lo = Math.max(
      query.afterSeq,
      query.createdFrom === undefined ? 0 : firstAtOrAfter(payments, query.createdFrom),
    );
    const hiByDate = query.createdTo === undefined ? payments.length : firstAtOrAfter(payments, query.createdTo + 1);
    const hi = Math.min(query.snapshotSeq, hiByDate);
    const items: PaymentRecord[] = [];
    const take = (i: number) => {
      const p = asOf(payments[i] as StoredPayment, query.asOfVersion);
      if (matches(p, query)) items.push(p);
    };
    // A status (the approvals queue's is pending) and a search skip the stretches that cannot hold them.
    const status = query.status ?? (query.awaitingApproval ? "pending" : undefined);
    const pieces = query.search === undefined ? undefined : SearchStretches.piecesOf(query.search);
    const skips = (i: number) => {
      const stretch = stretchOf(i);
      return (
        (status !== undefined && !ws.stretches.mayHold(stretch, status, query.asOfVersion)) ||
        (pieces !== undefined && !ws.searchStretches.mayHold(stretch, pieces))
      );
    };
    if (query.descending) {
      for (let i = hi - 1; i >= lo && items.length < query.limit; i--) {
        if (skips(i)) i = firstIndexOf(stretchOf(i));
        else take(i);
      }
    } else {
      for (let i = lo; i < hi && items.length < query.limit; i++) {
        if (skips(i)) i = lastIndexOf(stretchOf(i));
        else take(i);
      }
    }
    if (!query.countTotal) return { items };
    const counted = countedQuery(query);
    const countedUpTo = Math.min(counted.snapshotSeq, hiByDate);
    const startOfListing = query.createdFrom === undefined ? 0 : firstAtOrAfter(payments, query.createdFrom);
    let total = Math.max(0, countedUpTo - startOfListing);
    const filtered =
      query.status ||
      query.method ||
      query.account ||
      query.reference !== undefined ||
      query.search !== undefined ||
      query.awaitingApproval;
    const kept = filtered ? ws.counts.total(payments, counted, (p) => asOf(p, query.asOfVersion)) : undefined;
    if (kept !== undefined) total = kept;
    else if (filtered) {
      total = 0;
      for (let i = startOfListing; i < countedUpTo; i++) {
        if (skips(i)) i = lastIndexOf(stretchOf(i));
        else if (matches(asOf(payments[i] as StoredPayment, query.asOfVersion), query)) total++;
      }
    }
    return { items, total };
  }
}
