import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import type {
  DecideReconciliation,
  KeepReconciliation,
  PaymentQuery,
  PaymentsStore,
  StatementCandidatesQuery,
  WorkspaceSeed,
} from "./payments-store.js";

/**
 * The payments store as the sandbox sees it (workspaces named by their API keys) over one that keeps
 * only keyed hashes of the keys: a dump of the database holds no key that works.
 */
export class HashedWorkspacesStore implements PaymentsStore {
  readonly #inner: PaymentsStore;
  readonly #id: StoredWorkspaceId;

  constructor(inner: PaymentsStore, id: StoredWorkspaceId) {
    this.#inner = inner;
    this.#id = id;
  }

  #seed(seed: WorkspaceSeed): WorkspaceSeed {
    return { ...seed, workspace: this.#id(seed.workspace) };
  }

  reset(seeds: readonly WorkspaceSeed[]) {
    return this.#inner.reset(seeds.map((s) => this.#seed(s)));
  }
  async ensureWorkspaces(seeds: readonly WorkspaceSeed[]) {
    const byId = new Map(seeds.map((s) => [this.#id(s.workspace), s.workspace]));
    const created = await this.#inner.ensureWorkspaces(seeds.map((s) => this.#seed(s)));
    return created.map((id) => byId.get(id) as string);
  }
  resetWorkspace(seed: WorkspaceSeed) {
    return this.#inner.resetWorkspace(this.#seed(seed));
  }
  accounts(workspace: string) {
    return this.#inner.accounts(this.#id(workspace));
  }
  account(workspace: string, id: string) {
    return this.#inner.account(this.#id(workspace), id);
  }
  insert(workspace: string, ...rest: Parameters<PaymentsStore["insert"]> extends [string, ...infer R] ? R : never) {
    return this.#inner.insert(this.#id(workspace), ...rest);
  }
  payment(workspace: string, id: string) {
    return this.#inner.payment(this.#id(workspace), id);
  }
  transition(
    workspace: string,
    ...rest: Parameters<PaymentsStore["transition"]> extends [string, ...infer R] ? R : never
  ) {
    return this.#inner.transition(this.#id(workspace), ...rest);
  }
  completeDue(workspace: string, now: number, delayMs: number, chunks?: number) {
    return this.#inner.completeDue(this.#id(workspace), now, delayMs, chunks);
  }
  dueBacklog(workspace: string, now: number, delayMs: number) {
    return this.#inner.dueBacklog(this.#id(workspace), now, delayMs);
  }
  settleDue(workspace: string, now: number, chunks?: number) {
    return this.#inner.settleDue(this.#id(workspace), now, chunks);
  }
  somethingElapsed(workspace: string, now: number, delayMs: number) {
    // A store that cannot tell at once leaves the answer to completeDue and settleDue.
    return this.#inner.somethingElapsed?.(this.#id(workspace), now, delayMs) ?? Promise.resolve(true);
  }
  paymentWithElapsed(workspace: string, id: string, asOf: number, delayMs: number) {
    return this.#inner.paymentWithElapsed?.(this.#id(workspace), id, asOf, delayMs);
  }
  accountsWithElapsed(workspace: string, asOf: number, delayMs: number) {
    return this.#inner.accountsWithElapsed?.(this.#id(workspace), asOf, delayMs);
  }
  reconcileStatement<R>(
    workspace: string,
    query: StatementCandidatesQuery,
    at: number,
    decide: DecideReconciliation<R>,
    keep: KeepReconciliation<R>,
  ) {
    return this.#inner.reconcileStatement(this.#id(workspace), query, at, decide, keep);
  }
  snapshot(workspace: string) {
    return this.#inner.snapshot(this.#id(workspace));
  }
  list(workspace: string, query: PaymentQuery) {
    return this.#inner.list(this.#id(workspace), query);
  }
}
