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
  db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
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
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  expect(rows[0]?.n).toBeGreaterThanOrEqual(1);
  expect(rows[0]?.n).toBeLessThanOrEqual(2);
});
