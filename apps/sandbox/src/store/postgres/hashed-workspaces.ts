import type { ClockStore, PaymentQuery, PaymentsStore, Statement, WorkspaceSeed } from "../types.js";

/** How a workspace's API key is kept in the database: a keyed hash, never the key. */
export type StoredWorkspaceId = (apiKey: string) => string;

const WORKSPACE_SCOPE = "workspace:";

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
  approvalWorkflow(workspace: string) {
    return this.#inner.approvalWorkflow(this.#id(workspace));
  }
  setApprovalWorkflow(workspace: string, on: boolean) {
    return this.#inner.setApprovalWorkflow(this.#id(workspace), on);
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
  completeDue(workspace: string, now: number, delayMs: number) {
    return this.#inner.completeDue(this.#id(workspace), now, delayMs);
  }
  autoSettlement(workspace: string) {
    return this.#inner.autoSettlement(this.#id(workspace));
  }
  setAutoSettlement(workspace: string, on: boolean) {
    return this.#inner.setAutoSettlement(this.#id(workspace), on);
  }
  reportRecipients(workspace: string) {
    return this.#inner.reportRecipients(this.#id(workspace));
  }
  setReportRecipients(workspace: string, recipients: readonly string[]) {
    return this.#inner.setReportRecipients(this.#id(workspace), recipients);
  }
  settleDue(workspace: string, now: number) {
    return this.#inner.settleDue(this.#id(workspace), now);
  }
  somethingElapsed(workspace: string, now: number, delayMs: number) {
    // A store that cannot tell at once leaves the answer to completeDue and settleDue.
    return this.#inner.somethingElapsed?.(this.#id(workspace), now, delayMs) ?? Promise.resolve(true);
  }
  reconcile(workspace: string, statement: Statement, at: number) {
    return this.#inner.reconcile(this.#id(workspace), statement, at);
  }
  reconciliationRuns(workspace: string) {
    return this.#inner.reconciliationRuns(this.#id(workspace));
  }
  reconciliationRun(workspace: string, id: string) {
    return this.#inner.reconciliationRun(this.#id(workspace), id);
  }
  snapshot(workspace: string) {
    return this.#inner.snapshot(this.#id(workspace));
  }
  list(workspace: string, query: PaymentQuery) {
    return this.#inner.list(this.#id(workspace), query);
  }
}

/** Clock scopes of workspaces (`workspace:<key>`) kept under the hashed key too. */
export class HashedScopesClockStore implements ClockStore {
  readonly #inner: ClockStore;
  readonly #id: StoredWorkspaceId;

  constructor(inner: ClockStore, id: StoredWorkspaceId) {
    this.#inner = inner;
    this.#id = id;
  }

  #scope(scope: string): string {
    return scope.startsWith(WORKSPACE_SCOPE) ? WORKSPACE_SCOPE + this.#id(scope.slice(WORKSPACE_SCOPE.length)) : scope;
  }

  offsetMs(scope: string) {
    return this.#inner.offsetMs(this.#scope(scope));
  }
  lastOffsetMs(scope: string) {
    return this.#inner.lastOffsetMs?.(this.#scope(scope));
  }
  advance(scope: string, ms: number, maxMs: number) {
    return this.#inner.advance(this.#scope(scope), ms, maxMs);
  }
  reset(scope?: string) {
    return this.#inner.reset(scope === undefined ? undefined : this.#scope(scope));
  }
}
