import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "../../../../test/support/eventually.js";
import { sandboxCall } from "../../../../test/support/sandbox-call.js";
import { type SandboxProcess, startSandboxProcess } from "../../../../test/support/sandbox-process.js";
import { freshDatabase, TEST_SECRET } from "../../../../test/support/test-stores.js";
import { DEMO_API_KEYS, seedWorkspace } from "../../../index.js";

/**
 * `payspec-sandbox` as a team runs it: not ready while its database refuses connections or holds
 * another version's schema, ready again when that is over; SIGTERM under a create load stops it
 * with exit 0, and nothing it acknowledged is lost or completed twice.
 */
const KEY = DEMO_API_KEYS[0];
let databaseUrl: string;
let database: string;
let admin: pg.Pool;
const instances: SandboxProcess[] = [];
const start = async (env: Record<string, string> = {}) => {
  const instance = await startSandboxProcess({
    PAYSPEC_DATABASE_URL: databaseUrl,
    PAYSPEC_SANDBOX_SECRET: TEST_SECRET,
    ...env,
  });
  instances.push(instance);
  return instance;
};

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  const url = new URL(databaseUrl);
  database = url.pathname.slice(1);
  url.pathname = "/postgres";
  admin = new pg.Pool({ connectionString: url.toString(), max: 2 });
});
afterAll(async () => {
  for (const instance of instances) await instance.stop("SIGKILL");
  await admin.end();
});

const readiness = async (base: string) => {
  const answer = await fetch(`${base}/readyz`);
  return { status: answer.status, body: (await answer.json()) as { status: string; problems?: string[] } };
};

it("adds the process's metrics; is not ready while its database refuses connections or has another schema version, and ready after", async () => {
  const sandbox = await start();
  expect((await readiness(sandbox.url)).status).toBe(200);
  // The command's one instance adds the process's own metrics to its /metrics.
  const metrics = await (await fetch(`${sandbox.url}/metrics`)).text();
  expect(metrics).toMatch(/^payspec_sandbox_process_cpu_user_seconds_total \d/m);
  expect(metrics).toMatch(/^payspec_sandbox_nodejs_eventloop_lag_seconds \d/m);

  await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
  try {
    const down = await readiness(sandbox.url);
    expect(down.status).toBe(503);
    expect(down.body.problems).toEqual([expect.stringMatching(/database (does not answer|did not answer)/)]);
    // Liveness is the process: restarting it would not bring the database back.
    expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
  } finally {
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
  }
  // Ready again on its own, within 5 s of the database's return (a probe still waiting may answer first).
  await eventually(async () => ((await readiness(sandbox.url)).status === 200 ? true : undefined), "ready again", {
    withinMs: 5_000,
  });

  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await db.query("INSERT INTO payspec_migrations (version, name) VALUES (9999, 'from_a_newer_sandbox')");
    const newer = await readiness(sandbox.url);
    expect(newer.status).toBe(503);
    expect(newer.body.problems).toEqual([
      expect.stringContaining("migrated to version 9999 by a newer release, which this one cannot serve beside"),
    ]);
    // A newer release's additive migration: this instance serves on beside it.
    await db.query("UPDATE payspec_migrations SET older_may_serve = true WHERE version = 9999");
    expect((await readiness(sandbox.url)).status).toBe(200);
    await db.query("DELETE FROM payspec_migrations WHERE version = 9999");
    expect((await readiness(sandbox.url)).status).toBe(200);
  } finally {
    await db.end();
  }
  await sandbox.stop();
}, 120_000);

it("stops on SIGTERM under a create load with exit 0: every acknowledged create kept, each completed once", async () => {
  const sandbox = await start({ PAYSPEC_COMPLETE_AFTER_SECONDS: "1" });
  const accounts = (await sandboxCall(sandbox.url, "GET", "/v1/accounts", undefined, KEY)).body as {
    id: string;
    currency: string;
  }[];
  const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
  const acknowledged: string[] = [];
  /** What creates were answered after the SIGTERM other than 201: only 503s, "try another instance". */
  const refusals = new Set<number>();
  let stopping = false;
  // Eight clients creating until the instance goes away (bounded: 2,000 creates each at most).
  const client = async () => {
    for (let n = 0; n < 2_000 && sandbox.child.exitCode === null; n++) {
      try {
        const entry = { amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to };
        const answer = await sandboxCall(sandbox.url, "POST", "/v1/payments", entry, KEY);
        if (answer.status === 201) acknowledged.push(answer.body.id);
        else if (stopping) refusals.add(answer.status);
        else throw new Error(`create answered ${answer.status} before the SIGTERM`);
      } catch (error) {
        if (!stopping) throw error;
        return; // connection refused or reset once the instance stopped listening
      }
    }
  };
  let clientsEnded = false;
  const clients = Promise.all(Array.from({ length: 8 }, client)).finally(() => {
    clientsEnded = true;
  });
  clients.catch(() => undefined); // its failure is awaited below, once the instance has stopped
  // Past the completion delay, so that payments fall due (and the background loop completes them)
  // while the instance stops; bounded in time too, and ended by a client that failed.
  const loadStarted = Date.now();
  const loading = () => acknowledged.length < 300 || Date.now() - loadStarted < 1_500;
  while (!clientsEnded && loading() && Date.now() - loadStarted < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stopping = true;
  sandbox.child.kill("SIGTERM");
  const code = await new Promise<number | null>((resolve) => {
    if (sandbox.child.exitCode !== null) resolve(sandbox.child.exitCode);
    else sandbox.child.once("exit", (exit) => resolve(exit));
  });
  await clients;
  expect(acknowledged.length, "creates acknowledged before the SIGTERM (60 s at most)").toBeGreaterThanOrEqual(300);
  expect(code).toBe(0);
  expect([...refusals].filter((status) => status !== 503)).toEqual([]);

  // Another instance takes over and completes whatever the stopped one left due.
  const next = await start({ PAYSPEC_COMPLETE_AFTER_SECONDS: "1" });
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const pending = () => db.query("SELECT 1 FROM payments WHERE status = 'pending' LIMIT 1");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // A request brings its workspace up to date as well; bounded, not timed.
    for (let tries = 0; tries < 100 && (await pending()).rowCount; tries++) {
      await sandboxCall(next.url, "GET", "/v1/accounts", undefined, KEY);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await pending()).rowCount).toBe(0);
    // Money moved once for each completed payment: no completion lost or doubled.
    const completed = Number(
      (await db.query("SELECT count(*) AS n FROM payments WHERE status = 'completed'")).rows[0].n,
    );
    expect(completed).toBeGreaterThanOrEqual(acknowledged.length);
    const seeds = new Map(seedWorkspace(KEY).accounts.map((a) => [a.id, a.balanceMinor]));
    const balances = (await sandboxCall(next.url, "GET", "/v1/accounts", undefined, KEY)).body as {
      id: string;
      balance: number;
    }[];
    const minor = (id: string | undefined) =>
      Math.round((balances.find((a) => a.id === id)?.balance ?? Number.NaN) * 100);
    expect(minor(from)).toBe((seeds.get(from ?? "") ?? 0) - completed);
    expect(minor(to)).toBe((seeds.get(to ?? "") ?? 0) + completed);
    const kept = await db.query<{ id: string }>("SELECT id FROM payments WHERE id = ANY($1)", [acknowledged]);
    expect(kept.rowCount).toBe(acknowledged.length);
    // Each payment completed at most once: one history entry per status reached.
    const twice = await db.query(
      "SELECT seq, status, count(*) FROM payment_history GROUP BY workspace, seq, status HAVING count(*) > 1",
    );
    expect(twice.rows).toEqual([]);
  } finally {
    await db.end();
  }
}, 180_000);
