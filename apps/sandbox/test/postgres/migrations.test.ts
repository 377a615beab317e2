import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";
import { migrate, migrations } from "../../src/store/index.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

let databaseUrl: string;
let pools: pg.Pool[] = [];
const pool = () => {
  const created = new pg.Pool({ connectionString: databaseUrl });
  pools.push(created);
  return created;
};

beforeEach(async () => {
  databaseUrl = await freshDatabase();
});
afterEach(async () => {
  await Promise.all(pools.map((p) => p.end()));
  pools = [];
});

it("applies each migration once when five instances start at once, and nothing on a second start", async () => {
  const runs = await Promise.all(Array.from({ length: 5 }, () => migrate(pool())));
  const newest = migrations().map((m) => m.version);
  // Exactly one of them ran the migrations; the others found them applied.
  expect(runs.filter((ran) => ran.length > 0)).toEqual([newest]);
  const recorded = await pool().query("SELECT version FROM payspec_migrations ORDER BY version");
  expect(recorded.rows.map((r) => r.version)).toEqual(newest);
  expect(await migrate(pool())).toEqual([]);
});

it("refuses a database migrated by a newer sandbox, saying what to do", async () => {
  await migrate(pool());
  await pool().query("INSERT INTO payspec_migrations (version, name) VALUES (9999, 'from_the_future')");
  await expect(startSandbox({ databaseUrl, secret: TEST_SECRET })).rejects.toThrow(
    /schema version 9999, newer than this sandbox knows .*upgrade @payspec\/sandbox/,
  );
});

it("rolls a failing migration back entirely and names it", async () => {
  const broken = [{ version: 1, name: "broken", sql: "CREATE TABLE half_done (x int); SELECT no_such_function();" }];
  await expect(migrate(pool(), broken)).rejects.toThrow(/Migration 1 \(broken\) failed/);
  const tables = await pool().query("SELECT tablename FROM pg_tables WHERE tablename = 'half_done'");
  expect(tables.rows).toEqual([]);
});

it("keeps the state across a restart of the only instance, and will not start without the shared secret", async () => {
  const first = await startSandbox({ databaseUrl, secret: TEST_SECRET });
  const headers = { authorization: "Bearer sk_sandbox_demo_1", "content-type": "application/json" };
  const accounts = (await (await fetch(`${first.url}/v1/accounts`, { headers })).json()) as { id: string }[];
  const created = await fetch(`${first.url}/v1/payments`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      amount: 5,
      currency: "TRY",
      method: "eft",
      from_account: accounts[0]?.id,
      to_account: accounts[1]?.id,
    }),
  });
  const { id } = (await created.json()) as { id: string };
  await first.close();
  const second = await startSandbox({ databaseUrl, secret: TEST_SECRET });
  expect((await fetch(`${second.url}/v1/payments/${id}`, { headers })).status).toBe(200);
  await second.close();
  await expect(startSandbox({ databaseUrl })).rejects.toThrow(/PAYSPEC_DATABASE_URL needs PAYSPEC_SANDBOX_SECRET/);
});
