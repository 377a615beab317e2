import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { PostgresClockStore } from "../../src/clock/postgres-clock-store.js";
import { type RunningSandbox, seedWorkspace, startSandbox } from "../../src/index.js";
import { migrate, migrations } from "../../src/infrastructure/postgres/migrate.js";
import { SandboxSecret } from "../../src/infrastructure/secret/sandbox-secret.js";
import { PostgresPaymentsStore } from "../../src/payments/store/postgres/postgres-payments-store.js";
import { settlementOff } from "../support/clock-moves.js";
import { DashboardHttp } from "../support/dashboard-http.js";
import { KEY, OTHER_KEY } from "../support/harness.js";
import { insertPaymentsBefore0007 } from "../support/payments-before-0007.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function pool(databaseUrl: string): Promise<pg.Pool> {
  const p = new pg.Pool({ connectionString: databaseUrl });
  opened.push({ close: () => p.end() });
  return p;
}

async function sandbox(databaseUrl: string): Promise<RunningSandbox> {
  const s = await startSandbox({ databaseUrl, secret: TEST_SECRET });
  opened.push(s);
  return s;
}

/** Every row of every table, as text. */
async function everyRow(db: pg.Pool): Promise<string> {
  const tables = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
  const rows: string[] = [];
  for (const { tablename } of tables.rows) {
    const result = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${tablename}" t`);
    rows.push(...result.rows.map((r) => `${tablename}: ${r.row}`));
  }
  return rows.join("\n");
}

const payment = (from: string, to: string) => ({
  amount: 100,
  currency: "TRY",
  method: "eft",
  from_account: from,
  to_account: to,
});

it("keeps API keys only as keyed hashes: no table holds a key after payments, sign-ins and clock moves", async () => {
  const databaseUrl = await freshDatabase();
  const s = await sandbox(databaseUrl);
  const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const accounts = (await (await fetch(`${s.url}/v1/accounts`, { headers })).json()) as {
    id: string;
    currency: string;
  }[];
  const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  const created = await fetch(`${s.url}/v1/payments`, {
    method: "POST",
    headers,
    body: JSON.stringify(payment(from, to)),
  });
  expect(created.status).toBe(201);
  await fetch(`${s.url}/_sandbox/clock/advance`, { method: "POST", headers, body: JSON.stringify({ seconds: 60 }) });
  await new DashboardHttp(s.url).signIn(KEY);
  const rows = await everyRow(await pool(databaseUrl));
  expect(rows).toContain("dashboard_sessions");
  expect(rows).toContain(new SandboxSecret(TEST_SECRET).storedWorkspaceId(KEY));
  for (const key of [KEY, OTHER_KEY]) expect(rows).not.toContain(key);
});

it("migrates a database that kept keys in clear: the data stays, the keys go", async () => {
  const databaseUrl = await freshDatabase();
  const db = await pool(databaseUrl);
  // The schema as the previous release left it, with its data: workspaces under their keys.
  await migrate(
    db,
    migrations().filter((m) => m.version < 3),
  );
  const old = new PostgresPaymentsStore(db);
  const seed = seedWorkspace(KEY);
  await old.ensureWorkspaces([seed, seedWorkspace(OTHER_KEY)]);
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  const kept = { id: "pay_keptacrossmigration" };
  await insertPaymentsBefore0007(db, KEY, [{ ...kept, from, to, createdAt: Date.now() }]);
  await new PostgresClockStore(db).advance(`workspace:${KEY}`, 3_600_000, 10 * 365 * 86_400_000);
  expect(await everyRow(db)).toContain(KEY);

  const s = await sandbox(databaseUrl);
  // An hour ahead may cross Istanbul midnight, where settlement would strike: this test is about
  // the migration, so settlement stays off and the status does not depend on the time of day.
  await settlementOff(s.url, KEY);
  const read = await fetch(`${s.url}/v1/payments/${kept.id}`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(read.status).toBe(200);
  // The workspace's clock came along: the payment completed an hour ahead.
  expect(((await read.json()) as { status: string }).status).toBe("completed");
  const other = await fetch(`${s.url}/v1/payments/${kept.id}`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
  expect(other.status).toBe(404);
  const rows = await everyRow(db);
  for (const key of [KEY, OTHER_KEY]) expect(rows).not.toContain(key);
});

it("a value PostgreSQL refuses fails only its own create, not the others grouped with it", async () => {
  const db = await pool(await freshDatabase());
  await migrate(db);
  const store = new PostgresPaymentsStore(db);
  const seed = seedWorkspace(KEY);
  await store.ensureWorkspaces([seed]);
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  // Past the API (which refuses it first), straight to the store: the statement itself fails.
  const outcomes = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      store.insert(KEY, {
        id: `pay_group${String(i).padStart(10, "0")}`,
        amount: 100,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
        createdAt: 1_000 + i,
        countdownFrom: 1_000 + i,
        status: "pending",
        cause: "api",
        ...(i % 10 === 4 ? { description: "x\u0000" } : {}),
      }),
    ),
  );
  expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(27);
  expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(3);
  expect((await store.snapshot(KEY)).seq).toBe(27);
});

it("shares dashboard sessions between instances: signed in on one, used and signed out on the other", async () => {
  const databaseUrl = await freshDatabase();
  const a = await sandbox(databaseUrl);
  const b = await sandbox(databaseUrl);
  const onA = new DashboardHttp(a.url);
  await onA.signIn(KEY);
  const onB = new DashboardHttp(b.url);
  for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
  expect(await onB.signedIn()).toBe(true);
  const token = await onB.token("");
  expect((await onB.post("/sign-out", { _csrf: token })).status).toBe(303);
  expect(await onA.signedIn()).toBe(false);
});
