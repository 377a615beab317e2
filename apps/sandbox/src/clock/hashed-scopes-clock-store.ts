import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import type { ClockStore } from "./clock-store.js";

const WORKSPACE_SCOPE = "workspace:";

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
