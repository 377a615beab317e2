import type { OpenStores } from "../infrastructure/features/store-backend.js";
import { MemorySessionStore } from "./memory-session-store.js";
import { PostgresSessionStore } from "./postgres-session-store.js";
import type { SessionStore } from "./session-store.js";

export interface SessionStores {
  readonly sessions: SessionStore;
}

export const openSessionStores: OpenStores<SessionStores> = (backend) => ({
  sessions: backend.kind === "memory" ? new MemorySessionStore() : new PostgresSessionStore(backend.pool),
});
