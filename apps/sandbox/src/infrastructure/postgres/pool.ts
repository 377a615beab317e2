import { StartupProblem } from "@payspec/server-kit";
import pg from "pg";
import { migrate, migrations } from "./migrate.js";
import type { StoredWorkspaceId } from "./stored-workspace-id.js";

/**
 * An instance's connections to PostgreSQL when PAYSPEC_DATABASE_POOL_SIZE is unset: node-postgres' own
 * default. No code here takes a second connection while it holds one (a transaction uses only its own
 * client), so any size works; on a database sharing the instance's cores, 20 connections made GETs
 * under load wait 150–280 ms at the 99th percentile, 4 made them 46 ms.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * A pool on `databaseUrl` with the schema brought up to date (several instances may open the same
 * database at once), or a StartupProblem that says what to check.
 */
export async function openPool(
  databaseUrl: string,
  poolSize = DEFAULT_POOL_SIZE,
  storedWorkspaceId: StoredWorkspaceId,
): Promise<pg.Pool> {
  // The wait for a connection counts the wait for a free one in the pool: under a burst of requests
  // that is seconds, and must not be mistaken for a database away. A stopped or restarting database
  // refuses at once (ECONNREFUSED, 57P03), which answers 503 without this wait.
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
  return pool;
}
