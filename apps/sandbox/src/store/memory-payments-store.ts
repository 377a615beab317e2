import type {
  NewPayment,
  PaymentQuery,
  PaymentsStore,
  StoredAccount,
  StoredPayment,
  TransitionResult,
  WorkspaceSeed,
} from "./types.js";

interface Workspace {
  readonly accounts: Map<string, StoredAccount>;
  /** In seq order: payments[seq - 1]. */
  readonly payments: StoredPayment[];
  readonly byId: Map<string, StoredPayment>;
  /** Index into `payments` of the oldest payment that may still be pending. */
  completionCursor: number;
}

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

/** The in-memory store: fast, per-process, gone on restart. */
export class MemoryPaymentsStore implements PaymentsStore {
  #workspaces = new Map<string, Workspace>();
  #workspaceOf = new Map<string, string>();

  #ws(workspace: string): Workspace {
    const ws = this.#workspaces.get(workspace);
    if (!ws) throw new Error(`Unknown workspace ${workspace}`);
    return ws;
  }

  async reset(seeds: readonly WorkspaceSeed[]): Promise<void> {
    this.#workspaces = new Map(
      seeds.map((seed) => [
        seed.workspace,
        {
          accounts: new Map(seed.accounts.map((a) => [a.id, { ...a }])),
          payments: [],
          byId: new Map(),
          completionCursor: 0,
        },
      ]),
    );
    this.#workspaceOf = new Map();
  }

  async accounts(workspace: string) {
    return [...this.#ws(workspace).accounts.values()];
  }

  async account(workspace: string, id: string) {
    return this.#ws(workspace).accounts.get(id);
  }

  async insert(workspace: string, draft: NewPayment): Promise<StoredPayment> {
    const ws = this.#ws(workspace);
    const payment: StoredPayment = { ...draft, seq: ws.payments.length + 1, status: "pending" };
    ws.payments.push(payment);
    ws.byId.set(payment.id, payment);
    this.#workspaceOf.set(payment.id, workspace);
    return payment;
  }

  async payment(workspace: string, id: string) {
    return this.#ws(workspace).byId.get(id);
  }

  async locate(id: string) {
    const workspace = this.#workspaceOf.get(id);
    const payment = workspace ? this.#ws(workspace).byId.get(id) : undefined;
    return workspace && payment ? { workspace, payment } : undefined;
  }

  async transition(
    workspace: string,
    id: string,
    from: readonly StoredPayment["status"][] | "any",
    to: StoredPayment["status"],
    at: number,
  ): Promise<TransitionResult> {
    const payment = this.#ws(workspace).byId.get(id);
    if (!payment || (from !== "any" && !from.includes(payment.status))) return { ok: false, payment };
    payment.status = to;
    if (to === "completed" && payment.completedAt === undefined) payment.completedAt = at;
    if (to === "settled") {
      payment.completedAt ??= at;
      payment.settledAt ??= at;
    }
    return { ok: true, payment };
  }

  async completeDue(workspace: string, now: number, delayMs: number): Promise<void> {
    const ws = this.#ws(workspace);
    while (ws.completionCursor < ws.payments.length) {
      const payment = ws.payments[ws.completionCursor] as StoredPayment;
      if (payment.createdAt + delayMs > now) break;
      ws.completionCursor++;
      if (payment.status !== "pending") continue;
      const debit = ws.accounts.get(payment.from_account);
      const credit = ws.accounts.get(payment.to_account);
      if (!debit || !credit || debit.balanceMinor < payment.amount) {
        payment.status = "failed";
        continue;
      }
      debit.balanceMinor -= payment.amount;
      credit.balanceMinor += payment.amount;
      payment.status = "completed";
      payment.completedAt = payment.createdAt + delayMs;
    }
  }

  async lastSeq(workspace: string) {
    return this.#ws(workspace).payments.length;
  }

  async list(workspace: string, query: PaymentQuery) {
    const { payments } = this.#ws(workspace);
    // Creation order is seq order and time order, so date bounds and the cursor become index bounds.
    const lo = Math.max(
      query.afterSeq,
      query.createdFrom === undefined ? 0 : firstAtOrAfter(payments, query.createdFrom),
    );
    const hiByDate = query.createdTo === undefined ? payments.length : firstAtOrAfter(payments, query.createdTo + 1);
    const hi = Math.min(query.snapshotSeq, hiByDate);
    const items: StoredPayment[] = [];
    for (let i = lo; i < hi && items.length < query.limit; i++) {
      const p = payments[i] as StoredPayment;
      if (!query.status || p.status === query.status) items.push(p);
    }
    if (!query.countTotal) return { items };
    const startOfListing = query.createdFrom === undefined ? 0 : firstAtOrAfter(payments, query.createdFrom);
    let total = Math.max(0, hi - startOfListing);
    if (query.status) {
      total = 0;
      for (let i = startOfListing; i < hi; i++) if ((payments[i] as StoredPayment).status === query.status) total++;
    }
    return { items, total };
  }
}
