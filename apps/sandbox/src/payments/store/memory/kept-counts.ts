import type { PaymentQuery, PaymentRecord, StoredPayment } from "../payments-store.js";

/** What status, method and account filters and the approvals queue look at. */
type Grouped = Pick<StoredPayment, "status" | "method" | "from_account" | "to_account" | "countdownFrom">;

interface Group extends Omit<Grouped, "countdownFrom"> {
  /** Pending with no countdown: waiting for an approver. */
  readonly waits: boolean;
  n: number;
}

/** Waiting for an approver: pending, its completion countdown not started. */
const waitsForApprover = (p: Grouped) => p.status === "pending" && p.countdownFrom === undefined;

/**
 * The latest changes kept to correct a count back to a listing's snapshot: a first page's snapshot
 * is taken a moment before its count, so only the changes of that moment are needed. An older
 * snapshot than the log covers is counted the long way.
 */
const RECENT_CHANGES = 4_096;

/**
 * The in-memory store's counts of a workspace's payments by status, method and pair of accounts (a
 * handful of accounts: a few hundred groups however many payments), kept as payments are made and
 * change, with the latest changes: a listing filtered by those fields gets its exact total at its
 * snapshot without reading every payment, as PostgreSQL's kept counts give it (migration 0013).
 */
export class KeptCounts {
  readonly #groups = new Map<string, Group>();
  /** Changes in version order: which payment (its index) changed at which version. */
  #recent: { readonly version: number; readonly index: number }[] = [];
  /** Every change after this version is in `#recent`. */
  #coveredAfter = 0;

  /** A payment counted in its group (made, or moved into it by a change). */
  add(payment: Grouped): void {
    const key = groupKey(payment);
    const group = this.#groups.get(key);
    if (group) group.n++;
    else
      this.#groups.set(key, {
        status: payment.status,
        method: payment.method,
        from_account: payment.from_account,
        to_account: payment.to_account,
        waits: waitsForApprover(payment),
        n: 1,
      });
  }

  /** A payment taken out of its group (before a change moves it). */
  remove(payment: Grouped): void {
    const group = this.#groups.get(groupKey(payment));
    if (group) group.n--;
  }

  /** The payment at `index` changed at `version`. */
  changed(version: number, index: number): void {
    this.#recent.push({ version, index });
    if (this.#recent.length >= 2 * RECENT_CHANGES) {
      this.#coveredAfter = (this.#recent[RECENT_CHANGES - 1] as { version: number }).version;
      this.#recent = this.#recent.slice(RECENT_CHANGES);
    }
  }

  /**
   * The listing's total at its snapshot, or undefined when these counts cannot say (a date range, a
   * search, or a snapshot older than the changes kept): the payments counted
   * now, less those made since, with those changed since counted as they were.
   */
  total(
    payments: readonly StoredPayment[],
    query: PaymentQuery,
    asOf: (p: StoredPayment) => PaymentRecord,
  ): number | undefined {
    // Counts are kept by status, method and account: a date range, a search or a reference is counted row by row.
    const counted =
      query.createdFrom === undefined &&
      query.createdTo === undefined &&
      query.search === undefined &&
      query.reference === undefined;
    if (!counted || this.#coveredAfter > query.asOfVersion) return undefined;
    const fits = (p: Omit<Grouped, "countdownFrom">, waits: boolean) =>
      (!query.status || p.status === query.status) &&
      (!query.method || p.method === query.method) &&
      (!query.account || p.from_account === query.account || p.to_account === query.account) &&
      (!query.awaitingApproval || waits);
    const matches = (p: Grouped) => fits(p, waitsForApprover(p));
    let total = 0;
    for (const group of this.#groups.values()) if (fits(group, group.waits)) total += group.n;
    for (let i = query.snapshotSeq; i < payments.length; i++) if (matches(payments[i] as StoredPayment)) total--;
    const seen = new Set<number>();
    for (let r = this.#recent.length - 1; r >= 0; r--) {
      const { version, index } = this.#recent[r] as { version: number; index: number };
      if (version <= query.asOfVersion) break;
      if (index >= query.snapshotSeq || seen.has(index)) continue;
      seen.add(index);
      const payment = payments[index] as StoredPayment;
      if (matches(payment)) total--;
      if (matches(asOf(payment))) total++;
    }
    return total;
  }
}

function groupKey(p: Grouped): string {
  return `${p.status}\u0000${p.method}\u0000${p.from_account}\u0000${p.to_account}\u0000${waitsForApprover(p)}`;
}
