import type pg from "pg";
import { CommitOutcomeUnknown, isDatabaseAway } from "./database-unavailable.js";

/**
 * Runs `work` on one pooled connection of its own. A connection that breaks between two statements
 * (the server stopped, the backend terminated) emits an error that no query is there to receive:
 * unheard, it would end the process. Heard here, the statement that follows fails with it, and a
 * broken connection (or one `work` marks broken) is not returned to the pool.
 */
export async function onOwnConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, markBroken: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onBroken = (error: Error) => {
    broken = error;
  };
  client.on("error", onBroken);
  try {
    return await work(client, onBroken);
  } finally {
    client.off("error", onBroken);
    client.release(broken);
  }
}

/** Runs `work` in one transaction on one pooled connection: committed when it returns, rolled back when it throws. */
export function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return onOwnConnection(pool, async (client, markBroken) => {
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT").catch((error: unknown) => {
        // Refused by the server (a deferred constraint), the transaction did not happen; with the
        // connection gone, nobody knows.
        throw isDatabaseAway(error) ? new CommitOutcomeUnknown(error) : error;
      });
      return result;
    } catch (error) {
      // A connection that cannot even roll back is not returned to the pool.
      await client.query("ROLLBACK").catch(markBroken);
      throw error;
    }
  });
}

/**
 * The transaction a store's atomic operation runs in, handed to another feature that keeps its own
 * rows with it (a reconciliation run with the payments it reconciled): a PostgreSQL client holding
 * the transaction, or none in memory, where the whole operation runs without yielding.
 */
export interface SharedTransaction {
  readonly sql: pg.ClientBase | undefined;
}
