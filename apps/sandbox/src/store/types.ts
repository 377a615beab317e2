import type { CardPayment } from "@payspec/card-gateway-zod";
import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import type { CursorState } from "../payments/cursor.js";

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
};

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
  /** Payments with exactly this reference (the dashboard's search). */
  readonly reference?: string;
  /** Newest first (the dashboard's order): from the snapshot's end down to `afterSeq`. */
  readonly descending?: boolean;
  /** Inclusive bounds on createdAt, in ms. */
  readonly createdFrom?: number;
  readonly createdTo?: number;
  readonly limit: number;
  /** Count the records the listing holds (only its first page needs to; cursors carry the count). */
  readonly countTotal: boolean;
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
export interface PaymentsStore {
  /** Every workspace gone; these seeded afresh. */
  reset(seeds: readonly WorkspaceSeed[]): Promise<void>;
  /**
   * Seeds the workspaces that do not exist yet and leaves the others as they are (a shared store
   * survives an instance's restart); returns the workspaces it created.
   */
  ensureWorkspaces(seeds: readonly WorkspaceSeed[]): Promise<string[]>;
  /** One workspace back to its seed (accounts, no payments, approval workflow off); the others are untouched. */
  resetWorkspace(seed: WorkspaceSeed): Promise<void>;
  accounts(workspace: string): Promise<readonly StoredAccount[]>;
  /**
   * The workspace's accounts at once, from a store that holds them in this process (a store that must
   * ask a database leaves it out): the same list until a balance moves or the workspace is reset, so
   * that what is made from the list can be kept with it.
   */
  keptAccounts?(workspace: string): readonly StoredAccount[];
  /** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
  approvalWorkflow(workspace: string): Promise<boolean>;
  setApprovalWorkflow(workspace: string, on: boolean): Promise<void>;
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
  ): Promise<TransitionResult>;
  /**
   * Completes every payment AWAITING_COMPLETION whose countdown started `delayMs` before `now`, in the
   * order they became due (creation order among equals), as of the moment each became due: debit and
   * credit move together, or the payment fails when the debit account cannot cover it. Each payment
   * completes once, whoever calls.
   */
  completeDue(workspace: string, now: number, delayMs: number): Promise<void>;
  /** Whether completed payments settle by themselves at the daily cut-off (on in a fresh workspace). */
  autoSettlement(workspace: string): Promise<boolean>;
  setAutoSettlement(workspace: string, on: boolean): Promise<void>;
  /** Who receives the workspace's reports by e-mail; empty until set. */
  reportRecipients(workspace: string): Promise<readonly string[]>;
  setReportRecipients(workspace: string, recipients: readonly string[]): Promise<void>;
  /**
   * Settles every `completed` payment whose settlement cut-off (the first Istanbul midnight after its
   * completion) is at or before `now`, as of that cut-off: status `settled`, `settledAt` the cut-off,
   * cause "settlement". Nothing when the workspace's automatic settlement is off. Each payment settles
   * once, whoever calls; returns how many this call settled.
   */
  settleDue(workspace: string, now: number): Promise<number>;
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
   * Matches a statement's lines to the workspace's payments (`matchStatement`) and moves each matched
   * payment from `settled` to `reconciled`, recording the run: all of it, or (on any failure) none.
   */
  reconcile(workspace: string, statement: Statement, at: number): Promise<ReconciliationRun>;
  /** The workspace's reconciliation runs, newest first, without their lines. */
  reconciliationRuns(workspace: string): Promise<readonly ReconciliationSummary[]>;
  reconciliationRun(workspace: string, id: string): Promise<ReconciliationRun | undefined>;
  snapshot(workspace: string): Promise<Snapshot>;
  list(workspace: string, query: PaymentQuery): Promise<{ items: PaymentRecord[]; total?: number }>;
}

/** One line of a bank statement, as read from its file (the statement format is ours: see the sandbox README). */
export interface StatementLine {
  /** 1 for the first line after the header: what a report and an error name. */
  readonly line: number;
  readonly reference: string;
  readonly amountMinor: number;
  readonly currency: string;
  /** yyyy-MM-dd: the day the bank says the money settled. */
  readonly valueDate: string;
}

export interface Statement {
  readonly id: string;
  /** SHA-256 of the file's bytes: the same file imported again is recognised. */
  readonly sha256: string;
  readonly lines: readonly StatementLine[];
}

/** What became of one statement line. */
export type LineOutcome =
  | "matched"
  | "already_reconciled"
  | "amount_differs"
  | "currency_differs"
  | "no_payment"
  | "not_settled"
  | "ambiguous"
  | "repeated_line";

export interface ReconciledLine extends StatementLine {
  readonly outcome: LineOutcome;
  /** The payment the line names, when exactly one has its reference. */
  readonly paymentId?: string;
  /** That payment's status before the run. */
  readonly paymentStatus?: PaymentStatus;
}

/** A settled payment of one of the statement's value dates that no line matched. */
export interface UnmatchedPayment {
  readonly paymentId: string;
  readonly reference?: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly settledAt: number;
}

export interface ReconciliationSummary {
  readonly id: string;
  readonly at: number;
  readonly sha256: string;
  /** The earlier run of the same file, when this one repeats it. */
  readonly repeatOf?: string;
  readonly counts: Readonly<Record<LineOutcome, number>>;
  readonly unmatchedCount: number;
}

export interface ReconciliationRun extends ReconciliationSummary {
  readonly lines: readonly ReconciledLine[];
  readonly unmatched: readonly UnmatchedPayment[];
}

/**
 * An API key made in the dashboard or through the control API (the keys in PAYSPEC_API_KEYS are not
 * stored). Only a keyed hash of the key is kept: the key itself is shown once, at creation.
 */
export interface StoredApiKey {
  readonly id: string;
  /** The workspace it opens, by its tag (`workspaceTag`): never the workspace's own key. */
  readonly workspaceTag: string;
  readonly name: string;
  /** HMAC of the key with the sandbox secret. */
  readonly hash: string;
  /** Its prefix and last four characters, for people to tell keys apart. */
  readonly masked: string;
  readonly createdAt: number;
  /** yyyy-MM-dd: valid through the end of that Istanbul date (`expiresAt`). */
  readonly expiresOn?: string;
  readonly expiresAt?: number;
  readonly revokedAt?: number;
  readonly lastUsedAt?: number;
}

export interface ApiKeyStore {
  /** Stores the key unless the workspace already has `maxLive` keys not revoked; whether it did. */
  create(key: StoredApiKey, maxLive: number): Promise<boolean>;
  byHash(hash: string): Promise<StoredApiKey | undefined>;
  /** A workspace's keys, oldest first. */
  list(workspaceTag: string): Promise<readonly StoredApiKey[]>;
  /** Marks the key revoked (the first revocation's time stays); undefined when the workspace has no such key. */
  revoke(workspaceTag: string, id: string, at: number): Promise<StoredApiKey | undefined>;
  markUsed(id: string, at: number): Promise<void>;
  /** One workspace's keys gone (its reset), or every key (a sandbox reset). */
  deleteFor(workspaceTag?: string): Promise<void>;
}

/** A card payment as the gateway keeps it: the response it gave (card masked), and how to recognise a retry. */
export interface StoredCardPayment {
  readonly payment: CardPayment;
  /** Keyed fingerprint of the request: the card number enters only as a keyed hash, the CVC not at all. */
  readonly fingerprint: string;
  /** Commission charged, in major units (the report's Komisyon). */
  readonly commission: number;
  /** Istanbul local date, yyyy-MM-dd, of createdDate. */
  readonly localDate: string;
}

export interface GatewayStore {
  /** Everything gone: tokens and payments. */
  reset(): Promise<void>;
  /** The card payments gone, tokens kept (the control API's gateway reset). */
  clearPayments(): Promise<void>;
  saveToken(token: string, expiresAt: number): Promise<void>;
  /** Unique across every instance sharing the store: the number in the next orderId. */
  nextOrderNumber(): Promise<number>;
  tokenExpiry(token: string): Promise<number | undefined>;
  /**
   * Stores the payment unless its referenceId is taken; returns what is stored under that reference.
   * referenceIds arrive canonical (lower case), so case variants of one UUID are one payment.
   */
  insertIfAbsent(payment: StoredCardPayment): Promise<{ inserted: boolean; stored: StoredCardPayment }>;
  byReference(referenceId: string): Promise<StoredCardPayment | undefined>;
  onLocalDate(date: string): Promise<readonly StoredCardPayment[]>;
}

/**
 * The sandbox clocks' offsets from real time, per scope. Shared with the rest of the state, so that
 * instances sharing a store agree on expiry and completion.
 */
export interface ClockStore {
  offsetMs(scope: string): Promise<number>;
  /** The offset at once, from a store that holds offsets in this process; left out by one that must ask a database. */
  offsetMsKnown?(scope: string): number;
  /**
   * This process's last reading of the offset, at once (undefined before the first), for a write that
   * the store checks against the offset again as it stores it (see NewPayment.clockOffsetMs).
   */
  lastOffsetMs?(scope: string): number | undefined;
  /**
   * Adds `ms` (negative: back) to the scope's offset unless the sum would pass `maxMs` or fall below
   * zero (before real time); the offset after, and whether it moved.
   */
  advance(scope: string, ms: number, maxMs: number): Promise<{ moved: boolean; offsetMs: number }>;
  /** One scope, or every scope, back to real time. */
  reset(scope?: string): Promise<void>;
}

/** Who a dashboard session is for: one payments workspace (by its tag), or the card gateway. */
export type SessionSubject = { readonly kind: "workspace"; readonly tag: string } | { readonly kind: "gateway" };

/** A signed-in dashboard session, kept on the server: the cookie holds only a random id. */
export interface DashboardSession {
  /** SHA-256 of the cookie's id: a dump of the store hands out no live session. */
  readonly idHash: string;
  readonly subject: SessionSubject;
  /** The synchronizer token every form of this session carries; new at every sign-in. */
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/** Server-side dashboard sessions, shared by every instance that shares the store. */
export interface SessionStore {
  create(session: DashboardSession): Promise<void>;
  /**
   * The session, if it was seen after `idleSince` and created after `createdSince` (its last-seen time
   * moved to `now`); undefined, and the session gone, otherwise.
   */
  use(idHash: string, now: number, idleSince: number, createdSince: number): Promise<DashboardSession | undefined>;
  delete(idHash: string): Promise<void>;
  /** Every session of a workspace or of the gateway: a reset signs everyone out. */
  deleteFor(subject: SessionSubject): Promise<void>;
}

/** Everything the sandbox keeps, from one place: in memory, or in one PostgreSQL database. */
export interface SandboxStores {
  readonly payments: PaymentsStore;
  readonly gateway: GatewayStore;
  readonly clocks: ClockStore;
  readonly sessions: SessionStore;
  readonly apiKeys: ApiKeyStore;
  readonly outbox: OutboxStore;
  readonly exportJobs: ExportJobStore;
  readonly schedules: ScheduleStore;
  /** Releases connections; the data stays where it is. */
  close(): Promise<void>;
}

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/**
 * Where an e-mail stands. Without an SMTP server it is only `caught` (kept in the outbox, like a mail
 * catcher); with one it is `queued`, then `sent`, or `retrying` with backoff until `failed`.
 */
export type MailDelivery =
  | { readonly state: "caught" }
  | {
      readonly state: "queued" | "retrying";
      readonly attempts: number;
      readonly nextAttemptAt: number;
      readonly lastError?: string;
    }
  | { readonly state: "sent"; readonly attempts: number; readonly sentAt: number }
  | { readonly state: "failed"; readonly attempts: number; readonly lastError: string };

/** An e-mail the sandbox sent: kept whole in its workspace's outbox. */
export interface OutboxMessage {
  readonly id: string;
  readonly workspaceTag: string;
  /** Real time: an outbox is about the mail that left, not the sandbox's clock. */
  readonly createdAt: number;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly MailAttachment[];
  readonly delivery: MailDelivery;
}

/** The outbox of every workspace, and the SMTP delivery queue, shared by the instances that share the store. */
export interface OutboxStore {
  add(message: OutboxMessage): Promise<void>;
  /** Newest first, at most `limit`. */
  list(workspaceTag: string, limit: number): Promise<readonly OutboxMessage[]>;
  get(workspaceTag: string, id: string): Promise<OutboxMessage | undefined>;
  /**
   * Up to `limit` messages due for an SMTP attempt (queued or retrying, next attempt at or before `now`),
   * leased until `leaseUntil` so that no other instance sends them meanwhile.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<readonly OutboxMessage[]>;
  setDelivery(id: string, delivery: MailDelivery): Promise<void>;
  deleteFor(workspaceTag?: string): Promise<void>;
}

export type ExportJobState = "queued" | "running" | "ready" | "failed" | "expired";

/** A large export, written in the background from one listing snapshot and sent as a link. */
export interface ExportJob {
  readonly id: string;
  readonly workspaceTag: string;
  readonly format: "csv" | "pdf";
  /**
   * The listing as of the request (its snapshot, filters and total, as a cursor carries them): the
   * file holds exactly that, whenever it is written.
   */
  readonly listing: CursorState;
  readonly total: number;
  readonly requestedAt: number;
  readonly state: ExportJobState;
  readonly rowsWritten: number;
  /** Set while running: which instance holds it, and until when before another may take it over. */
  readonly leaseOwner?: string;
  readonly leaseUntil?: number;
  readonly attempts: number;
  readonly readyAt?: number;
  /** The link's expiry, on the workspace's clock. */
  readonly expiresAt?: number;
  readonly bytes?: number;
  readonly error?: string;
}

export interface ExportJobStore {
  add(job: ExportJob): Promise<void>;
  list(workspaceTag: string, limit: number): Promise<readonly ExportJob[]>;
  get(workspaceTag: string, id: string): Promise<ExportJob | undefined>;
  /** The oldest job that is queued, or running under a lease that ran out (its instance died), now leased to `owner`. */
  claim(owner: string, now: number, leaseUntil: number): Promise<ExportJob | undefined>;
  /** Progress under the lease; false when the lease is no longer this owner's (stop: another has the job). */
  progress(id: string, owner: string, rowsWritten: number, leaseUntil: number): Promise<boolean>;
  /**
   * The file and the e-mail that announces it, in one step: both or neither, and only while `owner`
   * still holds the lease, so a job yields exactly one file and one e-mail.
   */
  complete(
    id: string,
    owner: string,
    file: Buffer,
    done: { readyAt: number; expiresAt: number },
    mail?: OutboxMessage,
  ): Promise<boolean>;
  /** A job that is ready at once with its file (a scheduled report too large to attach). */
  addReady(job: ExportJob, file: Buffer): Promise<void>;
  fail(id: string, owner: string, error: string): Promise<void>;
  file(workspaceTag: string, id: string): Promise<Buffer | undefined>;
  /** Ready jobs whose link expired by `now` (per workspace clock, so the caller passes each): file dropped. */
  expire(workspaceTag: string, now: number): Promise<void>;
  deleteFor(workspaceTag?: string): Promise<void>;
}

/** When a schedule is due: every day, or every week on one day, at a time of day in Europe/Istanbul. */
export interface ReportCadence {
  readonly every: "day" | "week";
  /** For `week`: 1 Monday … 7 Sunday (ISO). */
  readonly weekday?: number;
  /** `HH:MM`, Europe/Istanbul. */
  readonly time: string;
}

/** A scheduled report: the payments of each period just ended, e-mailed at each due time. */
export interface ReportSchedule {
  readonly id: string;
  readonly workspaceTag: string;
  readonly name: string;
  readonly format: "csv" | "pdf";
  readonly filters: { readonly status?: PaymentStatus; readonly method?: PaymentMethod; readonly account?: string };
  readonly cadence: ReportCadence;
  readonly recipients: readonly string[];
  readonly paused: boolean;
  readonly createdAt: number;
  /** The next due time on the workspace's clock; each is delivered once and then moved on. */
  readonly nextDueAt: number;
}

/** What one due time of a schedule did. */
export interface ScheduleDelivery {
  readonly scheduleId: string;
  readonly dueAt: number;
  /** Real time of the delivery. */
  readonly at: number;
  readonly periodFrom: number;
  readonly periodTo: number;
  readonly rows: number;
  /** attached: the file in the e-mail; linked: too large, a link to it; skipped: past the catch-up bound. */
  readonly outcome: "attached" | "linked" | "skipped";
  readonly messageId?: string;
  readonly exportJobId?: string;
  readonly detail?: string;
}

export interface ScheduleStore {
  add(schedule: ReportSchedule): Promise<void>;
  list(workspaceTag: string): Promise<readonly ReportSchedule[]>;
  get(workspaceTag: string, id: string): Promise<ReportSchedule | undefined>;
  /** Replaces a schedule's settings (not its id or workspace); false when there is no such schedule. */
  replace(schedule: ReportSchedule): Promise<boolean>;
  remove(workspaceTag: string, id: string): Promise<boolean>;
  /** Unpaused schedules of the workspace due at or before `now`. */
  due(workspaceTag: string, now: number): Promise<readonly ReportSchedule[]>;
  /**
   * Records one due time's delivery and moves the schedule to `nextDueAt`, with its e-mail and (for
   * a linked report) its ready export and file, all at once; only if the schedule is still due at
   * `dueAt`, so that instances racing for one due time deliver it once. False when another did.
   */
  deliver(
    schedule: ReportSchedule,
    nextDueAt: number,
    deliveries: readonly ScheduleDelivery[],
    mail?: OutboxMessage,
    linked?: { readonly job: ExportJob; readonly file: Buffer },
  ): Promise<boolean>;
  deliveries(workspaceTag: string, scheduleId: string, limit: number): Promise<readonly ScheduleDelivery[]>;
  deleteFor(workspaceTag?: string): Promise<void>;
}
