import { type PostgresServer, startPostgres } from "@payspec/test-postgres";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "../../../../test/support/eventually.js";
import { type SandboxProcess, startSandboxProcess } from "../../../../test/support/sandbox-process.js";
import { TEST_SECRET } from "../../../../test/support/test-stores.js";
import { DEMO_API_KEYS, seedWorkspace } from "../../../index.js";

/**
 * The database going away under load, as pgbouncer's and JDBC's clients ride it out: fail fast while
 * it is away (every request a 503 with Retry-After in the API's error shape, within 2 s, never a 500
 * or a hang, never the database's address), `/readyz` 503 within 3 s and `/healthz` 200 throughout;
 * back to normal within 5 s of its return without a restart, the background loops going on, nothing
 * acknowledged lost and nothing done twice. Two outages: PostgreSQL stopped for 10 s, and every
 * connection of the sandbox killed with pg_terminate_backend.
 */
const KEY = DEMO_API_KEYS[0];
const OUTAGE_MS = 10_000;

let server: PostgresServer;
let databaseUrl: string;
let sandbox: SandboxProcess;

beforeAll(async () => {
  // A server of this file's own: the run's shared one cannot be stopped under the other tests.
  server = await startPostgres();
  databaseUrl = await server.createDatabase();
  sandbox = await startSandboxProcess({
    PAYSPEC_DATABASE_URL: databaseUrl,
    PAYSPEC_SANDBOX_SECRET: TEST_SECRET,
    PAYSPEC_COMPLETE_AFTER_SECONDS: "1",
  });
}, 120_000);
afterAll(async () => {
  await sandbox?.stop("SIGKILL");
  await server?.stop();
});

interface Answer {
  readonly at: number;
  readonly ms: number;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly text: string;
}

const [from, to] = seedWorkspace(KEY)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

/** One request as a client sends it, timed, with a bound of its own: a hang fails the test, not the run. */
async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const at = Date.now();
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return { at, ms: Date.now() - at, status: response.status, retryAfter: response.headers.get("retry-after"), text };
}

/**
 * Four clients creating and listing until `stop()` (bounded: 3,000 rounds each at most), and what
 * every request got; a create's reference is unique, so a double would show.
 */
function load(tag: string) {
  const answers: { kind: "create" | "list"; answer: Answer }[] = [];
  const acknowledged = new Map<string, string>();
  let stopped = false;
  let n = 0;
  const client = async () => {
    for (let round = 0; round < 3_000 && !stopped; round++) {
      const reference = `${tag}-${++n}`;
      const entry = { amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to, reference };
      const created = await send("POST", "/v1/payments", entry);
      answers.push({ kind: "create", answer: created });
      if (created.status === 201) acknowledged.set(reference, JSON.parse(created.text).id);
      answers.push({ kind: "list", answer: await send("GET", "/v1/payments?limit=5") });
      // A client that met a 503 waits as it was told, in short steps so the test can stop it.
      if (created.status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const clients = Promise.all(Array.from({ length: 4 }, client));
  return {
    answers,
    acknowledged,
    async stop() {
      stopped = true;
      await clients;
    },
  };
}

const readiness = async () => (await fetch(`${sandbox.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
const liveness = async () => (await fetch(`${sandbox.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status;

/** Every answer of the outage: a success or a 503 in the payments error shape, in time, naming nothing of the database. */
function expectAnsweredWell(answers: readonly { answer: Answer }[]): void {
  const unavailable = answers.filter(({ answer }) => answer.status === 503);
  expect(answers.filter(({ answer }) => ![200, 201, 503].includes(answer.status)).map(({ answer }) => answer)).toEqual(
    [],
  );
  for (const { answer } of unavailable) {
    expect(answer.ms, "a 503 answers at once, not after a hang").toBeLessThan(2_000);
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(answer.text) as { code: string; message: string };
    expect(body.code).toBe("service_unavailable");
    expect(body.message).not.toMatch(/127\.0\.0\.1|localhost|postgres(ql)?:\/\/|payspec@|:\d{4,5}\b|ECONN/i);
  }
}

/** The workspace's books after the load: every acknowledged create stored once, completed once, and money moved once. */
async function expectBooksKept(acknowledged: ReadonlyMap<string, string>): Promise<void> {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const stored = await db.query<{ reference: string; n: string }>(
      "SELECT reference, count(*) AS n FROM payments WHERE reference = ANY($1) GROUP BY reference",
      [[...acknowledged.keys()]],
    );
    expect(stored.rowCount, "every acknowledged create is stored").toBe(acknowledged.size);
    expect(stored.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
    // The due loop went on after the outage: every payment past its delay completed, each once.
    await eventually(
      async () =>
        (await db.query("SELECT 1 FROM payments WHERE status = 'pending' LIMIT 1")).rowCount === 0 ? true : undefined,
      "the completion of every payment created before and during the outage",
      { withinMs: 30_000, everyMs: 250 },
    );
    const twice = await db.query(
      "SELECT seq, status FROM payment_history GROUP BY workspace, seq, status HAVING count(*) > 1",
    );
    expect(twice.rows).toEqual([]);
    const seeds = new Map(seedWorkspace(KEY).accounts.map((a) => [a.id, a.balanceMinor]));
    const moved = await db.query<{ from_account: string; to_account: string; amount: string }>(
      "SELECT from_account, to_account, amount FROM payments WHERE status IN ('completed', 'settled', 'reconciled')",
    );
    for (const p of moved.rows) {
      seeds.set(p.from_account, (seeds.get(p.from_account) ?? 0) - Number(p.amount));
      seeds.set(p.to_account, (seeds.get(p.to_account) ?? 0) + Number(p.amount));
    }
    const accounts = JSON.parse((await send("GET", "/v1/accounts")).text) as { id: string; balance: number }[];
    for (const account of accounts) expect(Math.round(account.balance * 100), account.id).toBe(seeds.get(account.id));
  } finally {
    await db.end();
  }
}

it("answers 503 with Retry-After while PostgreSQL is stopped for 10 s, and recovers alone within 5 s of its return", async () => {
  const traffic = load("STOPPED");
  await eventually(async () => (traffic.acknowledged.size >= 50 ? true : undefined), "50 creates before the outage");
  const wentAway = Date.now();
  await server.goAway();
  const notReadyAfter = await eventually(
    async () => ((await readiness()) === 503 ? Date.now() - wentAway : undefined),
    "/readyz turning 503",
    { withinMs: 10_000, everyMs: 100 },
  );
  expect(notReadyAfter).toBeLessThan(3_000);
  expect(await liveness()).toBe(200);
  // A request met by the outage is refused at once: one more, timed on its own.
  const during = await send("GET", "/v1/payments?limit=1");
  expect(during.status).toBe(503);
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - wentAway)));
  expect(await liveness()).toBe(200);

  await server.comeBack();
  const back = Date.now();
  const servingAfter = await eventually(
    async () => ((await send("GET", "/v1/accounts")).status === 200 ? Date.now() - back : undefined),
    "the first answer after the database came back",
    { withinMs: 20_000, everyMs: 100 },
  );
  expect(servingAfter).toBeLessThan(5_000);
  expect(await readiness()).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await traffic.stop();

  const outage = traffic.answers.filter(({ answer }) => answer.at >= wentAway && answer.at < back);
  expect(outage.filter(({ answer }) => answer.status === 503).length).toBeGreaterThan(10);
  expectAnsweredWell(traffic.answers);
  expect(
    traffic.answers.filter(({ answer }) => answer.at > back + 1_000 && answer.status !== 200 && answer.status !== 201),
  ).toEqual([]);
  await expectBooksKept(traffic.acknowledged);
}, 120_000);

it("answers 503 and goes on when every connection it holds is killed with pg_terminate_backend", async () => {
  const traffic = load("TERMINATED");
  await eventually(async () => (traffic.acknowledged.size >= 50 ? true : undefined), "50 creates before the kill");
  const admin = new pg.Pool({ connectionString: server.url, max: 1 });
  try {
    const database = new URL(databaseUrl).pathname.slice(1);
    for (let kill = 0; kill < 5; kill++) {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await admin.end();
  }
  const killed = Date.now();
  const before = traffic.acknowledged.size;
  await eventually(
    async () => (traffic.acknowledged.size >= before + 50 ? true : undefined),
    "50 more creates after the kills",
  );
  await traffic.stop();
  expectAnsweredWell(traffic.answers);
  expect(traffic.answers.filter(({ answer }) => answer.at > killed + 1_000 && answer.status === 503)).toEqual([]);
  expect(await readiness()).toBe(200);
  await expectBooksKept(traffic.acknowledged);
}, 120_000);
