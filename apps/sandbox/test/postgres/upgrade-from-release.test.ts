import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_API_KEYS, seedWorkspace, startSandbox } from "../../src/index.js";
import { type Migration, migrate, migrations } from "../../src/infrastructure/postgres/migrate.js";
import { SandboxSecret } from "../../src/infrastructure/secret/sandbox-secret.js";
import { insertPaymentsBefore0007 } from "../support/payments-before-0007.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

/**
 * A database that the last release (@payspec/sandbox 1.0.0) made and filled, upgraded by this
 * sandbox, whose migrations now live in each feature's folder: its data reads as before, and its
 * schema is exactly the one a fresh database gets. The release's SQL files are kept as they were
 * (test/fixtures/release-1.0.0, from the release commit); its third migration is code, unchanged since.
 */
const KEY = DEMO_API_KEYS[0];
const fixture = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/release-1.0.0/${file}`, import.meta.url)), "utf8");
const RELEASE_1_0_0: Migration[] = [
  { version: 1, name: "initial", sql: fixture("0001_initial.sql") },
  { version: 2, name: "dashboard_sessions", sql: fixture("0002_dashboard_sessions.sql") },
  migrations().find((m) => m.version === 3) as Migration,
];

let pools: pg.Pool[] = [];
const open = (url: string) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  pools = [];
});

/** What the catalog says of the schema: every column (in order, with type, nullability, default), index, constraint and sequence. */
async function schemaOf(db: pg.Pool): Promise<Record<string, string[]>> {
  const rows = async (sql: string) =>
    (await db.query<Record<string, unknown>>(sql)).rows.map((row) => Object.values(row).join(" | "));
  return {
    columns: await rows(`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`),
    indexes: await rows("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname"),
    constraints: await rows(`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
    sequences: await rows(
      "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY 1",
    ),
  };
}

let releaseUrl: string;
const seed = seedWorkspace(KEY);
const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];

beforeAll(async () => {
  releaseUrl = await freshDatabase();
  const db = open(releaseUrl);
  await migrate(db, RELEASE_1_0_0);
  // A workspace as 1.0.0 kept it: under the keyed hash of its key, its accounts, two payments.
  const workspace = new SandboxSecret(TEST_SECRET).storedWorkspaceId(KEY);
  // Its approval workflow on: a setting 1.0.0 kept in a column of the workspace's row.
  await db.query("INSERT INTO workspaces (workspace, approval_workflow) VALUES ($1, true)", [workspace]);
  for (const [position, account] of seed.accounts.entries()) {
    await db.query(
      "INSERT INTO accounts (workspace, id, position, name, currency, balance_minor) VALUES ($1, $2, $3, $4, $5, $6)",
      [workspace, account.id, position, account.name, account.currency, account.balanceMinor],
    );
  }
  await insertPaymentsBefore0007(db, workspace, [
    { id: "pay_release100000001", from, to, createdAt: 1_000 },
    {
      id: "pay_release100000002",
      from,
      to,
      createdAt: 2_000,
      changes: [{ status: "cancelled", at: 3_000, cause: "api" }],
    },
  ]);
}, 120_000);

it("upgrades a 1.0.0 database: its payments, accounts and settings read as before, and a new payment is made", async () => {
  const sandbox = await startSandbox({ databaseUrl: releaseUrl, secret: TEST_SECRET, completeAfterSeconds: 1_000_000 });
  try {
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    const get = async (path: string) => (await fetch(`${sandbox.url}${path}`, { headers })).json() as Promise<any>;
    expect(await get("/v1/payments/pay_release100000002")).toMatchObject({
      id: "pay_release100000002",
      status: "cancelled",
    });
    expect((await get("/v1/payments?limit=10")).data.map((p: { id: string }) => p.id)).toEqual([
      "pay_release100000001",
      "pay_release100000002",
    ]);
    // The first was due long ago (created in 1970): it completes and settles on the upgraded tables.
    expect(await get("/v1/payments/pay_release100000001")).toMatchObject({
      status: "settled",
      completed_at: "1970-01-12T13:46:41.000Z",
      settled_at: "1970-01-12T21:00:00.000Z",
    });
    const balances = new Map(
      ((await get("/v1/accounts")) as { id: string; balance: number }[]).map((a) => [a.id, a.balance]),
    );
    const seeded = (id: string) => seed.accounts.find((a) => a.id === id)?.balanceMinor ?? Number.NaN;
    expect(Math.round((balances.get(from) ?? 0) * 100)).toBe(seeded(from) - 100);
    expect(Math.round((balances.get(to) ?? 0) * 100)).toBe(seeded(to) + 100);
    const created = await fetch(`${sandbox.url}/v1/payments`, {
      method: "POST",
      headers,
      body: JSON.stringify({ amount: 5, currency: "TRY", method: "eft", from_account: from, to_account: to }),
    });
    expect(created.status).toBe(201);
    // The setting 1.0.0 kept in its column is now the workspaces feature's row, and still on.
    const settings = await open(releaseUrl).query("SELECT name, value FROM workspace_settings");
    expect(settings.rows).toEqual([{ name: "approval_workflow", value: true }]);
    expect(await sandbox.stores.approvalWorkflow.get(KEY)).toBe(true);
    expect(await sandbox.stores.autoSettlement.get(KEY)).toBe(true);
  } finally {
    await sandbox.close();
  }
});

it("leaves the upgraded schema exactly as a fresh database's, column by column and index by index", async () => {
  const freshUrl = await freshDatabase();
  await migrate(open(freshUrl));
  const fresh = await schemaOf(open(freshUrl));
  const upgraded = await schemaOf(open(releaseUrl));
  expect(upgraded).toEqual(fresh);
  // Something to compare: every feature's tables are there.
  expect((fresh.columns ?? []).join("\n")).toMatch(/reconciliation_runs \| 1 \| workspace/);
  expect(fresh.indexes?.length).toBeGreaterThan(10);
});
