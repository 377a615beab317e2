import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import type { SharedTransaction } from "../../infrastructure/postgres/transaction.js";

export interface StoredAccount {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  /** Minor units: integers keep money exact; the API shows major units. */
  balanceMinor: number;
}

/** Who moved a payment: its history says, for people (the dashboard) and for audits. */
export type TransitionCause =
  | "api"
  | "completion"
  | "control"
  | "dashboard"
  /** The daily settlement cut-off (`settleDue`). */
  | "settlement"
  /** A reconciliation statement matched the payment. */
  | "reconciliation";

/** One entry of a payment's status history. */
export interface StatusChange {
  readonly status: PaymentStatus;
  readonly at: number;
  readonly cause: TransitionCause;
  /** The workspace's version after this change; listings read statuses as of their snapshot's version. */
  readonly version: number;
  readonly completedAt?: number;
  readonly settledAt?: number;
  /** Why completion failed: the debit account could not cover the payment when it fell due. */
  readonly shortfall?: Shortfall;
  /** Who made the change from the dashboard or the control API, when known (see `Actor`). */
  readonly actor?: Actor;
}

/**
 * Who acted: a keyed fingerprint of the API key used (what "someone else" is compared by), a space,
 * and the key masked as people see it (`3f9a0c… sk_sandbox_…o_1`). Never the key itself.
 */
export type Actor = string;

/** The actor as people see it: the masked key. */
export function actorShown(actor: Actor): string {
  return actor.slice(actor.indexOf(" ") + 1);
}

/** Whether two actors are one key. */
export function sameActor(a: Actor | undefined, b: Actor | undefined): boolean {
  return a !== undefined && b !== undefined && a.split(" ", 1)[0] === b.split(" ", 1)[0];
}

/** What the debit account held when a payment fell due, and what the payment needed (minor units). */
export interface Shortfall {
  readonly account: string;
  readonly heldMinor: number;
  readonly neededMinor: number;
}

export interface StoredPayment {
  /** Creation order within the workspace, from 1. Cursors are built on it. */
  readonly seq: number;
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly method: PaymentMethod;
  readonly from_account: string;
  readonly to_account: string;
  readonly description?: string;
  readonly reference?: string;
  status: PaymentStatus;
  readonly createdAt: number;
  completedAt?: number;
  settledAt?: number;
  /**
   * When the completion delay started counting: creation for API payments and dashboard payments that
   * go straight to processing, approval for approved ones; absent while a payment waits for an approver.
   */
  countdownFrom?: number;
  /** Every status it has had, oldest first; the last entry is the current status. */
  readonly history: readonly StatusChange[];
}

/** A record while it is filled in, field by field, before it is handed over read-only. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A payment to insert: its first status (`pending`, or `processing` from a dashboard without approval) and who made it. */
export type NewPayment = Omit<StoredPayment, "seq" | "completedAt" | "settledAt" | "history"> & {
  readonly status: "pending" | "processing";
  readonly cause: TransitionCause;
  /**
   * Set when createdAt (and countdownFrom) were worked out with this process's last reading of the
   * workspace clock's offset instead of a fresh read. A store whose clocks other processes move puts
   * the offset it sees as it inserts in its place, so the create costs no read of its own; a store
   * that holds the clock in this process has no other offset and ignores it.
   */
  readonly clockOffsetMs?: number;
  /** Who made it (dashboard and control-API submits), kept on its first history entry. */
  readonly actor?: Actor;
};

/**
 * A payment as its insert stores it: numbered `seq`, created at `createdAt` (the draft's time as the
 * store raised it, so that creation times never go backwards along the listing; a countdown that
 * started at creation moves with it), its first history entry at `version`. Field by field, not by
 * spreading the draft: every create runs this, and a spread copies slowly. Every optional field is
 * named, undefined when absent, so that every payment has one shape with all its fields inside the
 * object: the code that answers with payments then reads them all the same way.
 */
export function insertedPayment(
  draft: NewPayment,
  seq: number,
  createdAt: number,
  version: number,
): Writable<StoredPayment> & { history: StatusChange[] } {
  const shift = createdAt - draft.createdAt;
  return {
    seq,
    id: draft.id,
    amount: draft.amount,
    currency: draft.currency,
    method: draft.method,
    from_account: draft.from_account,
    to_account: draft.to_account,
    description: draft.description,
    reference: draft.reference,
    status: draft.status,
    createdAt,
    completedAt: undefined,
    settledAt: undefined,
    countdownFrom: draft.countdownFrom === undefined ? undefined : draft.countdownFrom + shift,
    history: [
      {
        status: draft.status,
        at: createdAt,
        cause: draft.cause,
        version,
        ...(draft.actor ? { actor: draft.actor } : {}),
      },
    ],
  };
}

/** A payment without its history: what a listing returns (a page never needs 100 histories). */
export type PaymentRecord = Omit<StoredPayment, "history">;

/**
 * Statuses in which the payment's money has moved from the debit to the credit account. Entering one
 * moves it exactly once; leaving one for a status without movement moves it back, so every balance
 * always equals its seed plus the payments in these statuses.
 */
export const MONEY_MOVED: ReadonlySet<PaymentStatus> = new Set(["completed", "settled", "reconciled"]);

/**
 * Statuses that completion moves on to `completed` once the delay has passed since `countdownFrom`
 * (or to `failed` when the debit account is short). Entering `approved` starts the countdown.
 */
export const AWAITING_COMPLETION: ReadonlySet<PaymentStatus> = new Set(["pending", "approved", "processing"]);

/**
 * Whether a status change starts the payment's completion countdown again, at the change's time:
 * approval does, and so does a forced move back into a status that completes, for a payment that
 * had a countdown. Otherwise completion would be dated from the old countdown, before the move.
 */
export function restartsCountdown(
  payment: { readonly countdownFrom?: number | undefined },
  to: PaymentStatus,
  cause: TransitionCause,
): boolean {
  return (
    to === "approved" || (cause === "control" && AWAITING_COMPLETION.has(to) && payment.countdownFrom !== undefined)
  );
}

/** A point in a workspace's history: the payments created so far, and the changes made so far. */
export interface Snapshot {
  readonly seq: number;
  readonly version: number;
}

export interface WorkspaceSeed {
  readonly workspace: string;
  readonly accounts: readonly StoredAccount[];
}

export interface PaymentQuery {
  /** Only records with seq above this (the cursor position). */
  readonly afterSeq: number;
  /** Only records with seq at or below this (the listing's snapshot). */
  readonly snapshotSeq: number;
  /** Statuses (and the status filter) as they were at this workspace version: the listing's snapshot. */
  readonly asOfVersion: number;
  readonly status?: PaymentStatus;
  /** The dashboard's filters (the API has neither). */
  readonly method?: PaymentMethod;
  /** Payments that debit or credit this account. */
  readonly account?: string;
  /** Payments whose reference is exactly this (the API's filter, to find a create whose answer was lost). */
  readonly reference?: string;
  /**
   * The dashboard's search: payments whose reference or description contains this text, compared as
   * `foldForSearch` folds both (case-insensitive by Turkish rules, accents kept). Already folded.
   */
  readonly search?: string;
  /**
   * Only payments waiting for an approver: pending with no completion countdown (dashboard payments
   * made under the approval workflow), as they are now.
   */
  readonly awaitingApproval?: boolean;
  /** Newest first (the dashboard's order): from the snapshot's end down to `afterSeq`. */
  readonly descending?: boolean;
  /** Inclusive bounds on createdAt, in ms. */
  readonly createdFrom?: number;
  readonly createdTo?: number;
  readonly limit: number;
  /** Count the records the listing holds (only its first page needs to; cursors carry the count). */
  readonly countTotal: boolean;
  /**
   * The total counts the listing up to this seq rather than `snapshotSeq`: a dashboard page that
   * starts below the snapshot's newest payment shows the count of the whole snapshot. At or above
   * `snapshotSeq`; by default, `snapshotSeq`.
   */
  readonly totalUpToSeq?: number;
}

/** The query a listing's total is counted by: its snapshot moved up to `totalUpToSeq` when that is given. */
export function countedQuery(query: PaymentQuery): PaymentQuery {
  return query.totalUpToSeq === undefined ? query : { ...query, snapshotSeq: query.totalUpToSeq };
}

export type TransitionResult =
  | { readonly ok: true; readonly payment: StoredPayment }
  | { readonly ok: false; readonly reason: "not_found"; readonly payment: undefined }
  /** `status`: not in an allowed `from` status; `funds`: the account to debit (or, undoing, to credit back) is short. */
  | { readonly ok: false; readonly reason: "status" | "funds"; readonly payment: StoredPayment };

/**
 * Where the payments service keeps its state. Every method is atomic on its own: transitions are
 * compare-and-set, and completion moves both balances together, so a shared implementation
 * (PostgreSQL, with one transaction per method) can replace the in-memory one.
 */
/** A read, with what the same statement saw of the workspace's clock and of time's work. */
export interface WithElapsed<T> {
  readonly value: T;
  /** The workspace's clock offset, as the read saw it. */
  readonly offsetMs: number;
  /** Whether completion or settlement had something to do by the moment asked as of. */
  readonly due: boolean;
}

export interface PaymentsStore {
  /** Every workspace gone; these seeded afresh. */
  reset(seeds: readonly WorkspaceSeed[]): Promise<void>;
  /**
   * Seeds the workspaces that do not exist yet and leaves the others as they are (a shared store
   * survives an instance's restart); returns the workspaces it created.
   */
  ensureWorkspaces(seeds: readonly WorkspaceSeed[]): Promise<string[]>;
  /** One workspace back to its seed (accounts, no payments); the others are untouched. */
  resetWorkspace(seed: WorkspaceSeed): Promise<void>;
  accounts(workspace: string): Promise<readonly StoredAccount[]>;
  /**
   * The workspace's accounts at once, from a store that holds them in this process (a store that must
   * ask a database leaves it out): the same list until a balance moves or the workspace is reset, so
   * that what is made from the list can be kept with it.
   */
  keptAccounts?(workspace: string): readonly StoredAccount[];
  account(workspace: string, id: string): Promise<StoredAccount | undefined>;
  insert(workspace: string, payment: NewPayment): Promise<StoredPayment>;
  payment(workspace: string, id: string): Promise<StoredPayment | undefined>;
  /**
   * Moves `id` to `to` only if its status is one of `from` (compare-and-set), moving the balances as
   * MONEY_MOVED says, all or nothing. Entering `approved` starts its completion countdown at `at`.
   */
  transition(
    workspace: string,
    id: string,
    from: readonly PaymentStatus[] | "any",
    to: PaymentStatus,
    at: number,
    cause: TransitionCause,
    actor?: Actor,
  ): Promise<TransitionResult>;
  /**
   * Completes every payment AWAITING_COMPLETION whose countdown started `delayMs` before `now`, in the
   * order they became due (creation order among equals), as of the moment each became due: debit and
   * credit move together, or the payment fails when the debit account cannot cover it. Each payment
   * completes once, whoever calls. `chunks`: at most that many of the store's chunks now (a request's
   * share; the due-work loop completes the rest), else all.
   */
  completeDue(workspace: string, now: number, delayMs: number, chunks?: number): Promise<void>;
  /**
   * How many payments completeDue would complete at `now` and has not yet: the background work's
   * backlog, for `/metrics`. Read through the completion schedule, never every payment.
   */
  dueBacklog(workspace: string, now: number, delayMs: number): Promise<number>;
  /**
   * Settles every `completed` payment whose settlement cut-off (the first Istanbul midnight after its
   * completion) is at or before `now`, as of that cut-off: status `settled`, `settledAt` the cut-off,
   * cause "settlement". Nothing when the workspace's automatic settlement (the settlement feature's
   * setting, which the store reads where it keeps it) is off. Each payment settles
   * once, whoever calls; returns how many this call settled.
   */
  settleDue(workspace: string, now: number, chunks?: number): Promise<number>;
  /**
   * Whether neither completeDue nor settleDue has anything to do at `now`, answered at once by a store
   * that holds its payments in this process; a store that must ask a database leaves it out. It may
   * answer false when nothing is due (the full calls then find nothing); never true when something is.
   */
  nothingElapsed?(workspace: string, now: number, delayMs: number): boolean;
  /**
   * Whether completeDue or settleDue may have something to do at `now`, asked in one query by a store
   * that must ask a database (the two calls' own checks are a query each). False only when neither has.
   */
  somethingElapsed?(workspace: string, now: number, delayMs: number): Promise<boolean>;
  /**
   * A payment by id (its record: what the API shows) and somethingElapsed's question as of `asOf`, with
   * the clock's offset, in one round trip, by a store that must ask a database: see
   * readAfterElapsedTime. Undefined: ask them apart.
   */
  paymentWithElapsed?(
    workspace: string,
    id: string,
    asOf: number,
    delayMs: number,
  ): Promise<WithElapsed<PaymentRecord | undefined>> | undefined;
  /** The accounts, the same way as paymentWithElapsed. */
  accountsWithElapsed?(
    workspace: string,
    asOf: number,
    delayMs: number,
  ): Promise<WithElapsed<readonly StoredAccount[]>> | undefined;
  snapshot(workspace: string): Promise<Snapshot>;
  list(workspace: string, query: PaymentQuery): Promise<{ items: PaymentRecord[]; total?: number }>;
  /**
   * A statement's reconciliation as one atomic step under the workspace's lock: the payments it may
   * name (`query`) go to `decide`, which says which settled payments become `reconciled` (cause
   * "reconciliation", at `at`) and what the run is; `keep` then writes the caller's own record of
   * the run in the same transaction. All of it commits, or none; two at once take turns.
   */
  reconcileStatement<R>(
    workspace: string,
    query: StatementCandidatesQuery,
    at: number,
    decide: DecideReconciliation<R>,
    keep: KeepReconciliation<R>,
  ): Promise<R>;
}

/** Which payments a bank statement may name (reconciliation asks; the payments' own store answers). */
export interface StatementCandidatesQuery {
  /** Payments whose reference, trimmed and folded as `foldForSearch` folds, is one of these. */
  readonly referenceKeys: readonly string[];
  /**
   * Settled payments completed on or before this Istanbul day number (days since the epoch, Istanbul
   * time) and settled on or after `settledFromDay`: those whose value-date window may hold a
   * statement's date. The caller decides each exactly.
   */
  readonly completedByDay: number;
  readonly settledFromDay: number;
}

/** Which settled payments a statement reconciles, and the run that says so (reconciliation's matcher). */
export type DecideReconciliation<R> = (candidates: StatementCandidates) => {
  readonly reconcile: readonly PaymentRecord[];
  readonly result: R;
};
/** Keeps the caller's record of a reconciliation in the payments store's transaction. */
export type KeepReconciliation<R> = (result: R, transaction: SharedTransaction) => Promise<R>;

/** What a statement may name: see StatementCandidatesQuery. */
export interface StatementCandidates {
  readonly byReference: readonly PaymentRecord[];
  readonly settledOnValueDates: readonly PaymentRecord[];
}
