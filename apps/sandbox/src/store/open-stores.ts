import { StartupProblem } from "@payspec/server-kit";
import pg from "pg";
import { MemoryApiKeyStore } from "./memory-api-key-store.js";
import { MemoryClockStore } from "./memory-clock-store.js";
import { MemoryExportJobStore } from "./memory-export-job-store.js";
import { MemoryGatewayStore } from "./memory-gateway-store.js";
import { MemoryOutboxStore } from "./memory-outbox-store.js";
import { MemoryPaymentsStore } from "./memory-payments-store.js";
import { MemoryScheduleStore } from "./memory-schedule-store.js";
import { MemorySessionStore } from "./memory-session-store.js";
import { HashedScopesClockStore, HashedWorkspacesStore, type StoredWorkspaceId } from "./postgres/hashed-workspaces.js";
import { migrate, migrations } from "./postgres/migrate.js";
import { PostgresApiKeyStore } from "./postgres/postgres-api-key-store.js";
import { PostgresClockStore } from "./postgres/postgres-clock-store.js";
import { PostgresExportJobStore } from "./postgres/postgres-export-job-store.js";
import { PostgresGatewayStore } from "./postgres/postgres-gateway-store.js";
import { PostgresOutboxStore } from "./postgres/postgres-outbox-store.js";
import { PostgresPaymentsStore } from "./postgres/postgres-payments-store.js";
import { PostgresScheduleStore } from "./postgres/postgres-schedule-store.js";
import { PostgresSessionStore } from "./postgres/postgres-session-store.js";
import type { SandboxStores } from "./types.js";

/** The in-memory stores: per process, gone on restart. The default. */
export function memoryStores(): SandboxStores {
  const outbox = new MemoryOutboxStore();
  const exportJobs = new MemoryExportJobStore(outbox);
  return {
    payments: new MemoryPaymentsStore(),
    gateway: new MemoryGatewayStore(),
    clocks: new MemoryClockStore(),
    sessions: new MemorySessionStore(),
    apiKeys: new MemoryApiKeyStore(),
    outbox,
    exportJobs,
    schedules: new MemoryScheduleStore(outbox, exportJobs),
    close: async () => undefined,
  };
}

export interface PostgresStoresOptions {
  /**
   * How API keys are kept: a keyed hash (the sandbox derives one from PAYSPEC_SANDBOX_SECRET). Every
   * instance on the database must use the same.
   */
  readonly storedWorkspaceId: StoredWorkspaceId;
  readonly poolSize?: number;
}

/**
 * An instance's connections to PostgreSQL when PAYSPEC_DATABASE_POOL_SIZE is unset: node-postgres' own
 * default. No code here takes a second connection while it holds one (a transaction uses only its own
 * client), so any size works; on a database sharing the instance's cores, 20 connections made GETs
 * under load wait 150–280 ms at the 99th percentile, 4 made them 46 ms.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * The PostgreSQL stores on `databaseUrl`, its schema brought up to date first. Several instances may
 * open the same database at once.
 */
export async function postgresStores(
  databaseUrl: string,
  { storedWorkspaceId, poolSize = DEFAULT_POOL_SIZE }: PostgresStoresOptions,
): Promise<SandboxStores> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart, a terminated backend) must not crash the sandbox:
  // the pool discards it and the next query opens a new one.
  pool.on("error", () => undefined);
  try {
    await migrate(pool, migrations(), { storedWorkspaceId });
  } catch (error) {
    await pool.end();
    const reason = (error as Error).message;
    throw new StartupProblem(
      `The sandbox could not use its PostgreSQL database (PAYSPEC_DATABASE_URL): ${reason}. Check the URL, that the server is running and that this user may create tables in that database.`,
    );
  }
  return {
    payments: new HashedWorkspacesStore(new PostgresPaymentsStore(pool), storedWorkspaceId),
    gateway: new PostgresGatewayStore(pool),
    clocks: new HashedScopesClockStore(new PostgresClockStore(pool), storedWorkspaceId),
    sessions: new PostgresSessionStore(pool),
    apiKeys: new PostgresApiKeyStore(pool),
    outbox: new PostgresOutboxStore(pool),
    exportJobs: new PostgresExportJobStore(pool),
    schedules: new PostgresScheduleStore(pool),
    close: () => pool.end(),
  };
}
