/**
 * Listings as the workspace grows: the sandbox in memory and on PostgreSQL, side by side, with
 * 10,000, 100,000 and 1,000,000 payments in one workspace (#63 item 4). For each size: the first page
 * (with its exact `pagination.total`), the second page by cursor, each filter the API and the
 * dashboard have (status, method, account, one day, a search), and the accounts.
 * Goals: on PostgreSQL, the first page and each filter >= 1,000 req/s at 1,000,000 payments and at
 * least half their own rate at 10,000.
 *
 * Payments reach memory through the API (500 a batch); PostgreSQL's are copied in SQL from one made
 * through the API (every column as the sandbox writes it), in five statuses, so that a status filter
 * has something to skip; the database is ANALYZEd as a long-running one would be.
 */
import { compareHttp, type HttpResult, loadGenerator, startProcess, table } from "@payspec/bench-kit";
import { startPostgres } from "@payspec/test-postgres";
import pg from "pg";
import { auth, createBody, json, PENDING_FOR_THE_RUN, sandboxBin, tryAccounts, url } from "./sandbox-fixture.js";

const PORTS = { memory: 4761, postgres: 4762 };
const SIZES = [10_000, 100_000, 1_000_000];
const STATUSES = ["pending", "completed", "failed", "cancelled", "settled"];
const METHODS = ["eft", "card", "bank_transfer", "virtual_account"];
const GOAL_RPS = 1_000;

/** The listings measured at each size: name and path. */
function listings(day: string, secondPage: string): [string, string][] {
  return [
    ["first page", "/v1/payments?limit=20"],
    ["second page (cursor)", `/v1/payments?cursor=${encodeURIComponent(secondPage)}`],
    ["status=failed", "/v1/payments?limit=20&status=failed"],
    ["method=card", "/v1/payments?limit=20&method=card"],
    ["account", `/v1/payments?limit=20&account=${tryAccounts[0]}`],
    ["one day", `/v1/payments?limit=20&from=${day}&to=${day}`],
    ["search", "/v1/payments?limit=20&q=INV-4242"],
    ["accounts", "/v1/accounts"],
  ];
}

const postgres = await startPostgres({ fast: false });
const stops: (() => void)[] = [];
try {
  const databaseUrl = await postgres.createDatabase();
  for (const [name, port] of Object.entries(PORTS)) {
    const env: NodeJS.ProcessEnv = { PORT: String(port), ...PENDING_FOR_THE_RUN, PAYSPEC_SAMPLE_PAYMENTS: "off" };
    if (name === "postgres") Object.assign(env, { PAYSPEC_DATABASE_URL: databaseUrl, PAYSPEC_SANDBOX_SECRET: "bench" });
    if (name === "memory") env.PAYSPEC_MEMORY_MAX_PAYMENTS = String(SIZES.at(-1) ?? 0);
    stops.push(await startProcess(process.execPath, [sandboxBin], `${url(port)}/`, { env, pinned: true }));
  }
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const batch = (n: number) =>
    JSON.stringify({
      payments: Array.from({ length: n }, (_, i) => ({
        ...JSON.parse(createBody),
        method: METHODS[i % METHODS.length],
        reference: `INV-${i}`,
      })),
    });
  let made = 0;
  const rows: (string | number)[][] = [];
  const byTarget = new Map<string, HttpResult>();
  for (const size of SIZES) {
    // Memory: through the API.
    while (made < size) {
      const n = Math.min(500, size - made);
      const answer = await fetch(`${url(PORTS.memory)}/v1/payments/batch`, {
        method: "POST",
        headers: json,
        body: batch(n),
      });
      if (answer.status !== 200) throw new Error(`POST /v1/payments/batch answered ${answer.status} on memory.`);
      made += n;
    }
    // PostgreSQL: one through the API, then copies up to the size.
    const have = Number((await db.query("SELECT count(*) AS n FROM payments")).rows[0].n);
    if (have === 0) {
      const answer = await fetch(`${url(PORTS.postgres)}/v1/payments`, {
        method: "POST",
        headers: json,
        body: createBody,
      });
      if (answer.status !== 201) throw new Error(`POST /v1/payments answered ${answer.status} on PostgreSQL.`);
    }
    const columns = (
      await db.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' ORDER BY ordinal_position",
      )
    ).rows.map((r) => r.column_name);
    const status = `(ARRAY['${STATUSES.join("','")}'])[1 + g % ${STATUSES.length}]`;
    const copied: Record<string, string> = {
      seq: "g",
      id: "'pay_' || lpad(g::text, 16, '0')",
      version: "g",
      created_version: "g",
      status,
      created_status: "'pending'",
      method: `(ARRAY['${METHODS.join("','")}'])[1 + g % ${METHODS.length}]`,
      reference: "'INV-' || g",
      // A payment a second after the first: creation times never go backwards along the listing.
      created_at: "p.created_at + (g - 1)::bigint * 1000",
      completed_at: `CASE WHEN ${status} IN ('completed', 'settled') THEN p.created_at ELSE NULL END`,
      settled_at: `CASE WHEN ${status} = 'settled' THEN p.created_at ELSE NULL END`,
    };
    await db.query(
      `INSERT INTO payments (${columns.join(", ")})
       SELECT ${columns.map((c) => copied[c] ?? `p.${c}`).join(", ")}
       FROM payments p, generate_series(${have + 2}, ${size}) g WHERE p.seq = 1`,
    );
    await db.query("UPDATE workspaces SET payment_count = $1, version = $1 WHERE payment_count > 0", [size]);
    await db.query("VACUUM ANALYZE");

    // The Istanbul day of the first payments: a day of them on PostgreSQL, all of them in memory.
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    for (const [store, port] of Object.entries(PORTS)) {
      const first = await fetch(`${url(port)}/v1/payments?limit=20`, { headers: auth });
      const { pagination } = (await first.json()) as { pagination: { total: number; next_cursor: string } };
      if (pagination.total !== size) throw new Error(`${store} lists ${pagination.total} payments, not ${size}.`);
      const results = await compareHttp(
        listings(day, pagination.next_cursor).map(([name, path]) => ({
          name: `${store} ${name}`,
          url: url(port, path),
          headers: auth,
        })),
        { seconds: 2, rounds: 3 },
      );
      for (const result of results) byTarget.set(`${size} ${result.name}`, result);
    }
    for (const [name] of listings(day, "")) {
      const memory = byTarget.get(`${size} memory ${name}`);
      const onPostgres = byTarget.get(`${size} postgres ${name}`);
      const rate = (r: HttpResult | undefined) => Math.round(r?.requestsPerSecond ?? 0).toLocaleString("en-US");
      const p99 = (r: HttpResult | undefined) => (r?.p99Ms ?? 0).toFixed(1);
      rows.push([size.toLocaleString("en-US"), name, rate(memory), p99(memory), rate(onPostgres), p99(onPostgres)]);
    }
  }
  await db.end();
  console.log(
    `Listings as the workspace grows, 16 connections, median of 3 interleaved 2 s rounds; ${loadGenerator().description}`,
  );
  console.log(table(["payments", "listing", "memory req/s", "p99 ms", "PostgreSQL req/s", "p99 ms"], rows));
  const largest = SIZES.at(-1) as number;
  const smallest = SIZES[0] as number;
  const misses: string[] = [];
  for (const [name] of listings("", "")) {
    if (name === "accounts" || name.startsWith("second")) continue;
    const atLargest = byTarget.get(`${largest} postgres ${name}`)?.requestsPerSecond ?? 0;
    const atSmallest = byTarget.get(`${smallest} postgres ${name}`)?.requestsPerSecond ?? 0;
    if (atLargest < GOAL_RPS)
      misses.push(`${name}: ${Math.round(atLargest)} req/s at ${largest.toLocaleString("en-US")}`);
    else if (atLargest < atSmallest / 2)
      misses.push(
        `${name}: ${(atLargest / atSmallest).toFixed(2)}x of its rate at ${smallest.toLocaleString("en-US")}`,
      );
  }
  console.log(
    misses.length === 0
      ? `PostgreSQL listings at ${largest.toLocaleString("en-US")} payments: each >= ${GOAL_RPS} req/s and >= half its rate at ${smallest.toLocaleString("en-US")}: met`
      : `PostgreSQL listings at ${largest.toLocaleString("en-US")} payments: NOT met for ${misses.join("; ")}`,
  );
} finally {
  for (const stop of stops) stop();
  await postgres.stop();
}
