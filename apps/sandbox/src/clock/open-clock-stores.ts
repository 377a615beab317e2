import type { OpenStores } from "../infrastructure/features/store-backend.js";
import { scopeWithKey } from "../infrastructure/time/clock-scopes.js";
import { keyedByStoredIds } from "../workspaces/index.js";
import type { ClockStore } from "./clock-store.js";
import { MemoryClockStore } from "./memory-clock-store.js";
import { PostgresClockStore } from "./postgres-clock-store.js";

export interface ClockStores {
  readonly clocks: ClockStore;
}

/** In PostgreSQL, a workspace's clock scope (`workspace:<key>`) is kept under its stored id; the gateway's as it is. */
export const openClockStores: OpenStores<ClockStores> = (backend) => {
  if (backend.kind === "memory") return { clocks: new MemoryClockStore() };
  const { storedWorkspaceId } = backend;
  return {
    clocks: keyedByStoredIds<ClockStore>(new PostgresClockStore(backend.pool), (scope) =>
      scopeWithKey(scope, storedWorkspaceId),
    ),
  };
};
