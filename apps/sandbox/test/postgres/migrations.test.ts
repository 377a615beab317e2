import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, expect, it, onTestFinished } from "vitest";
import { seedWorkspace, startSandbox } from "../../src/index.js";
import { ADDITIVE_MARKER, migrate, migrations } from "../../src/infrastructure/postgres/migrate.js";
import { PostgresPaymentsStore } from "../../src/payments/store/postgres/postgres-payments-store.js";
import { insertPaymentsBefore0007 } from "../support/payments-before-0007.js";
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

it("starts beside a newer release's additive migrations, recording which migrations older releases may serve", async () => {
  await migrate(pool());
  // What the next release records for an additive migration (ADDITIVE_MARKER on its first line).
  await pool().query(
    "INSERT INTO payspec_migrations (version, name, older_may_serve) VALUES (9998, 'next_release', true)",
  );
  await expect(migrate(pool())).resolves.toEqual([]);
  const recorded = await pool().query(
    "SELECT version, older_may_serve FROM payspec_migrations WHERE version <= 2 ORDER BY 1",
  );
  expect(recorded.rows).toEqual([
    { version: 1, older_may_serve: false },
    { version: 2, older_may_serve: false },
  ]);
  const additive = migrations([{ feature: "demo", dir: additiveDir() }]);
  expect(additive.map((m) => [m.version, m.olderMayServe === true])).toEqual([
    [3, false],
    [9000, true],
    [9001, false],
  ]);
});

/** A feature folder with one additive and one other migration, besides the migrator's own 0003. */
function additiveDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "payspec-additive-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "9000_add_note.sql"), `${ADDITIVE_MARKER}\nALTER TABLE payments ADD COLUMN note text;\n`);
  writeFileSync(join(dir, "9001_drop_note.sql"), "ALTER TABLE payments DROP COLUMN note;\n");
  return dir;
}

it("rolls a failing migration back entirely and names it", async () => {
  const broken = [{ version: 1, name: "broken", sql: "CREATE TABLE half_done (x int); SELECT no_such_function();" }];
  await expect(migrate(pool(), broken)).rejects.toThrow(/Migration 1 \(broken\) failed/);
  const tables = await pool().query("SELECT tablename FROM pg_tables WHERE tablename = 'half_done'");
  expect(tables.rows).toEqual([]);
});

it("collects every feature's migrations in one order; the parts of one version run as one, creators first, all or nothing", async () => {
  const root = mkdtempSync(join(tmpdir(), "payspec-migrations-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const write = (feature: string, file: string, sql: string) => {
    mkdirSync(join(root, feature), { recursive: true });
    writeFileSync(join(root, feature, file), sql);
  };
  write("ledger", "0001_ledger.sql", "CREATE TABLE ledger_rows (x int PRIMARY KEY);");
  // Before the ledger's part alphabetically, but it names the ledger's table: it runs after it.
  write("accounts", "0001_accounts.sql", "CREATE TABLE account_rows (ledger int REFERENCES ledger_rows);");
  write("notes", "0001_notes.sql", "CREATE TABLE note_rows (x int);");
  write("notes", "0004_broken.sql", "CREATE TABLE note_extras (x int);");
  write("ledger", "0004_broken.sql", "SELECT no_such_function();");
  write("ledger", "README.md", "not a migration");
  const dirs = ["accounts", "ledger", "notes"].map((feature) => ({ feature, dir: join(root, feature) }));
  const found = migrations(dirs);
  // The migrator's own code migration (3) sits between the features' versions.
  expect(found.map((m) => [m.version, m.name])).toEqual([
    [1, "ledger + accounts + notes"],
    [3, "hash_api_keys"],
    [4, "broken"],
  ]);
  const db = pool();
  await expect(
    migrate(
      db,
      found.filter((m) => m.version !== 3),
    ),
  ).rejects.toThrow(/Migration 4 \(broken\) failed/);
  const tables = await db.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  // Version 1 whole; of version 4, not the notes' part that ran before the ledger's failed.
  expect(tables.rows.map((r) => r.tablename)).toEqual([
    "account_rows",
    "ledger_rows",
    "note_rows",
    "payspec_migrations",
  ]);
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

it("moves each payment's creation onto its row (0007): histories and listings as of any version read as before", async () => {
  const db = pool();
  await migrate(
    db,
    migrations().filter((m) => m.version < 7),
  );
  const store = new PostgresPaymentsStore(db);
  const seed = seedWorkspace("sk_sandbox_before_0007");
  await store.ensureWorkspaces([seed]);
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  // Versions: 1 creates the first; 2 creates the second and 3 completes it; 4 creates the third, 5 cancels it.
  await insertPaymentsBefore0007(db, seed.workspace, [
    { id: "pay_kept000000000001", from, to, createdAt: 1_000 },
    {
      id: "pay_kept000000000002",
      from,
      to,
      createdAt: 2_000,
      changes: [{ status: "completed", at: 5_000, cause: "completion", completedAt: 5_000 }],
    },
    {
      id: "pay_kept000000000003",
      from,
      to,
      createdAt: 3_000,
      changes: [{ status: "cancelled", at: 6_000, cause: "api" }],
    },
  ]);

  expect(await migrate(db)).toEqual(migrations().flatMap((m) => (m.version >= 7 ? [m.version] : [])));

  expect((await store.payment(seed.workspace, "pay_kept000000000002"))?.history).toEqual([
    { status: "pending", at: 2_000, cause: "api", version: 2 },
    { status: "completed", at: 5_000, cause: "completion", version: 3, completedAt: 5_000 },
  ]);
  expect((await store.payment(seed.workspace, "pay_kept000000000001"))?.history).toEqual([
    { status: "pending", at: 1_000, cause: "api", version: 1 },
  ]);
  const listed = async (asOfVersion: number, snapshotSeq: number, status?: "pending") =>
    (
      await store.list(seed.workspace, {
        afterSeq: 0,
        snapshotSeq,
        asOfVersion,
        limit: 10,
        countTotal: true,
        ...(status ? { status } : {}),
      })
    ).items.map((p) => [p.id.slice(-1), p.status, p.completedAt]);
  expect(await listed(2, 2)).toEqual([
    ["1", "pending", undefined],
    ["2", "pending", undefined],
  ]);
  expect(await listed(4, 3)).toEqual([
    ["1", "pending", undefined],
    ["2", "completed", 5_000],
    ["3", "pending", undefined],
  ]);
  expect(await listed(4, 3, "pending")).toEqual([
    ["1", "pending", undefined],
    ["3", "pending", undefined],
  ]);
  expect(await listed(5, 3, "pending")).toEqual([["1", "pending", undefined]]);
  // Only the changes stay in payment_history.
  const changes = await db.query("SELECT seq, version FROM payment_history ORDER BY version");
  expect(changes.rows.map((r) => [Number(r.seq), Number(r.version)])).toEqual([
    [2, 3],
    [3, 5],
  ]);
});

it("leaves no payment without its workspace once 0008 drops the per-row check: an unknown workspace's create writes nothing, a full reset deletes every payment and its history", async () => {
  const db = pool();
  await migrate(db);
  const store = new PostgresPaymentsStore(db);
  const seed = seedWorkspace("sk_sandbox_no_orphans");
  await store.reset([seed]);
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  const draft = (id: string, workspace = seed.workspace) =>
    store.insert(workspace, {
      id,
      amount: 100,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      description: "Şube İzmir, ödeme ğ ı",
      createdAt: 1_000,
      countdownFrom: 1_000,
      status: "pending",
      cause: "api",
    });
  const stored = await draft("pay_orphan0000000001");
  expect(stored.description).toBe("Şube İzmir, ödeme ğ ı");
  await store.transition(seed.workspace, stored.id, ["pending"], "cancelled", 2_000, "api");
  await expect(draft("pay_orphan0000000002", "sk_sandbox_never_seeded")).rejects.toThrow(/Unknown workspace/);
  const count = async (table: string) => Number((await db.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  expect([await count("payments"), await count("payment_history")]).toEqual([1, 1]);

  await store.reset([seed]);
  expect([await count("payments"), await count("payment_history")]).toEqual([0, 0]);
  // The same id can be created again in the fresh workspace: nothing of the old one is left behind.
  expect((await draft("pay_orphan0000000001")).seq).toBe(1);
});
