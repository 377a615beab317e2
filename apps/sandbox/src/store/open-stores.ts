import pg from "pg";
import { MemoryClockStore } from "./memory-clock-store.js";
import { MemoryGatewayStore } from "./memory-gateway-store.js";
import { MemoryPaymentsStore } from "./memory-payments-store.js";
import { migrate } from "./postgres/migrate.js";
import { PostgresClockStore } from "./postgres/postgres-clock-store.js";
import { PostgresGatewayStore } from "./postgres/postgres-gateway-store.js";
import { PostgresPaymentsStore } from "./postgres/postgres-payments-store.js";
import type { SandboxStores } from "./types.js";

/** The in-memory stores: per process, gone on restart. The default. */
export function memoryStores(): SandboxStores {
  return {
    payments: new MemoryPaymentsStore(),
    gateway: new MemoryGatewayStore(),
    clocks: new MemoryClockStore(),
    close: async () => undefined,
  };
}

/**
 * The PostgreSQL stores on `databaseUrl`, its schema brought up to date first. Several instances may
 * open the same database at once.
 */
export async function postgresStores(databaseUrl: string, poolSize = 20): Promise<SandboxStores> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart, a terminated backend) must not crash the sandbox:
  // the pool discards it and the next query opens a new one.
  pool.on("error", () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    const reason = (error as Error).message;
    throw new Error(`The sandbox could not prepare its PostgreSQL database (PAYSPEC_DATABASE_URL): ${reason}`);
  }
  return {
    payments: new PostgresPaymentsStore(pool),
    gateway: new PostgresGatewayStore(pool),
    clocks: new PostgresClockStore(pool),
    close: () => pool.end(),
  };
}
