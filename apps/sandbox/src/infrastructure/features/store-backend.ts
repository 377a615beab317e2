import type pg from "pg";
import type { StoredWorkspaceId } from "../postgres/stored-workspace-id.js";

/**
 * Where the sandbox keeps its state, handed to every feature so each opens its own stores (the app
 * only lists the features): this process's memory, or one PostgreSQL database whose schema the
 * migrator has brought up to date.
 */
export type StoreBackend = MemoryBackend | PostgresBackend;

export interface MemoryBackend {
  readonly kind: "memory";
  /** The most payments kept, every workspace together (PAYSPEC_MEMORY_MAX_PAYMENTS). */
  readonly maxPayments: number;
}

export interface PostgresBackend {
  readonly kind: "postgres";
  readonly pool: pg.Pool;
  /** How a workspace's API key is kept in the database (a keyed hash, the same on every instance). */
  readonly storedWorkspaceId: StoredWorkspaceId;
}

/**
 * How a feature opens its stores on either backend, given the stores of the features it builds on
 * (`Needs`: exports' jobs need the outbox; reconciliation needs the payments ledger).
 */
export type OpenStores<Opened, Needs = Record<never, never>> = (backend: StoreBackend, needs: Needs) => Opened;
