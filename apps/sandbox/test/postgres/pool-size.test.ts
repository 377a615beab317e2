import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../src/index.js";
import { sandboxCall } from "../support/sandbox-call.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

let sandbox: RunningSandbox | undefined;
let db: pg.Pool | undefined;
afterEach(async () => {
  await sandbox?.close();
  await db?.end();
});

it("keeps to PAYSPEC_DATABASE_POOL_SIZE connections, and serves concurrent creates and reads through them", async () => {
  const databaseUrl = await freshDatabase();
  sandbox = await startSandbox({ databaseUrl, secret: TEST_SECRET, databasePoolSize: 2 });
  const own = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  db = own;
  const accounts = (await sandboxCall(sandbox.url, "GET", "/v1/accounts")).body as { id: string; currency: string }[];
  const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
  const base = sandbox.url;
  const created = await Promise.all(
    Array.from({ length: 30 }, () =>
      sandboxCall(base, "POST", "/v1/payments", {
        amount: 1,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
      }),
    ),
  );
  expect(created.map((r) => r.status)).toEqual(Array(30).fill(201));
  const read = await Promise.all(created.map((r) => sandboxCall(base, "GET", `/v1/payments/${r.body.id}`)));
  expect(read.map((r) => r.body.id)).toEqual(created.map((r) => r.body.id));
  // The sandbox's connections are every other session on this database (this test's own is one).
  // A backend whose client has just said goodbye (the migration's, a connection the pool let go) stays
  // in pg_stat_activity until its process exits, which on a busy machine takes a moment: what must hold
  // is that the count settles at the pool's size, never above it for good.
  const sessions = async () =>
    (
      await own.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      )
    ).rows[0]?.n ?? 0;
  await expect.poll(sessions, { timeout: 5_000, interval: 100 }).toBeLessThanOrEqual(2);
  expect(await sessions()).toBeGreaterThanOrEqual(1);
});
