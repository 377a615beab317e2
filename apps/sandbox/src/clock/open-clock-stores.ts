import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { ClockStore } from "./clock-store.js";
import { HashedScopesClockStore } from "./hashed-scopes-clock-store.js";
import { MemoryClockStore } from "./memory-clock-store.js";
import { PostgresClockStore } from "./postgres-clock-store.js";

export interface ClockStores {
  readonly clocks: ClockStore;
}

export const openClockStores: OpenStores<ClockStores> = (backend) => ({
  clocks:
    backend.kind === "memory"
      ? new MemoryClockStore()
      : new HashedScopesClockStore(new PostgresClockStore(backend.pool), backend.storedWorkspaceId),
});
