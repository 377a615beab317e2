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
