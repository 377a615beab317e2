import type pg from "pg";

/** Runs `work` in one transaction on one pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      // A connection that cannot even roll back is not returned to the pool.
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * The transaction a store's atomic operation runs in, handed to another feature that keeps its own
 * rows with it (a reconciliation run with the payments it reconciled): a PostgreSQL client holding
 * the transaction, or none in memory, where the whole operation runs without yielding.
 */
export interface SharedTransaction {
  readonly sql: pg.ClientBase | undefined;
}
