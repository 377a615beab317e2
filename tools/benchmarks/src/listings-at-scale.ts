/**
 * Listings as the workspace grows: the sandbox in memory and on PostgreSQL, side by side, with
 * 10,000, 100,000 and 1,000,000 payments in one workspace (#63 item 4). For each size: the API's first
 * page (with its exact `pagination.total`), its second page by cursor, its filters (status, one day),
 * the accounts, and the dashboard's overview with its filters (status, method, account, and a search
 * for part of a reference, which a trigram index answers on PostgreSQL and stretches of bits in
 * memory). Goals: on PostgreSQL, the API's first page and each filter >= 1,000 req/s at 1,000,000
 * payments and at least half their own rate at 10,000; the dashboard's overview under 200 ms.
 *
 * Payments reach memory through the API (500 a batch); PostgreSQL's are copied in SQL from one made
 * through the API (every column as the sandbox writes it), in five statuses, so that a status filter
 * has something to skip; the database is ANALYZEd as a long-running one would be.
 */
import { compareHttp, type HttpResult, loadGenerator, startProcess, table } from "@payspec/bench-kit";
import { type CopiedColumns, copyFirstPayment } from "@payspec/sandbox";
import { startPostgres } from "@payspec/test-postgres";
import pg from "pg";
import {
  auth,
  createBody,
  dashboardSession,
  json,
  PENDING_FOR_THE_RUN,
  sandboxBin,
  tryAccounts,
  url,
} from "./sandbox-fixture.js";

const PORTS = { memory: 4761, postgres: 4762 };
const SIZES = [10_000, 100_000, 1_000_000];
const STATUSES = ["pending", "completed", "failed", "cancelled", "settled"];
const METHODS = ["eft", "card", "bank_transfer", "virtual_account"];
const GOAL_RPS = 1_000;
/** The dashboard's overview at the largest size: its p99, in ms. */
const OVERVIEW_MS = 200;

/**
 * The listings measured at each size: name, path, and whether it is the dashboard's (signed in; its
 * overview is a first page of 25 with its total, the accounts and the filters' form). Method,
 * account and search are the dashboard's filters: the API has status and dates.
 */
function listings(day: string, secondPage: string): [string, string, "api" | "dashboard"][] {
  const overview = "/_sandbox/dashboard";
  return [
    ["API first page", "/v1/payments?limit=20", "api"],
    ["API second page (cursor)", `/v1/payments?cursor=${encodeURIComponent(secondPage)}`, "api"],
    ["API status=failed", "/v1/payments?limit=20&status=failed", "api"],
    ["API one day", `/v1/payments?limit=20&from=${day}&to=${day}`, "api"],
    ["API accounts", "/v1/accounts", "api"],
    ["dashboard overview", overview, "dashboard"],
    ["dashboard status=failed", `${overview}?status=failed`, "dashboard"],
    ["dashboard method=card", `${overview}?method=card`, "dashboard"],
    ["dashboard account", `${overview}?account=${tryAccounts[0]}`, "dashboard"],
    // INV-7777 and the references that start with it: 1, 11 and 111 of them at the three sizes.
    ["dashboard search", `${overview}?q=inv-7777`, "dashboard"],
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
    const status = `(ARRAY['${STATUSES.join("','")}'])[1 + g % ${STATUSES.length}]`;
    const copied: CopiedColumns = {
      status,
      created_status: "'pending'",
      method: `(ARRAY['${METHODS.join("','")}'])[1 + g % ${METHODS.length}]`,
      reference: "'INV-' || g",
      // A payment a second after the first: creation times never go backwards along the listing.
      created_at: "p.created_at + (g - 1)::bigint * 1000",
      completed_at: `CASE WHEN ${status} IN ('completed', 'settled') THEN p.created_at ELSE NULL END`,
      settled_at: `CASE WHEN ${status} = 'settled' THEN p.created_at ELSE NULL END`,
    };
    const workspace = (await db.query<{ workspace: string }>("SELECT workspace FROM payments WHERE seq = 1")).rows[0];
    if (!workspace) throw new Error("The first payment made on PostgreSQL is not in its database.");
    // After the first (seq 1) or the last size's copies: seqs run on without a gap.
    await copyFirstPayment(db, workspace.workspace, { first: Math.max(have, 1) + 1, last: size }, copied);
    await db.query("UPDATE workspaces SET payment_count = $1, version = $1 WHERE payment_count > 0", [size]);
    await db.query("VACUUM ANALYZE");

    // The UTC day of the first payments (the API's dates are UTC days): a day of them on PostgreSQL,
    // all of them in memory. An Istanbul date found none after 21:00 UTC, and flattered that row.
    const day = new Date().toISOString().slice(0, 10);
    for (const [store, port] of Object.entries(PORTS)) {
      const first = await fetch(`${url(port)}/v1/payments?limit=20`, { headers: auth });
      const { pagination } = (await first.json()) as { pagination: { total: number; next_cursor: string } };
      if (pagination.total !== size) throw new Error(`${store} lists ${pagination.total} payments, not ${size}.`);
      const session = { cookie: await dashboardSession(url(port)) };
      const targets = (where: "api" | "dashboard") =>
        listings(day, pagination.next_cursor)
          .filter((listing) => listing[2] === where)
          .map(([name, path]) => ({
            name: `${store} ${name}`,
            url: url(port, path),
            headers: where === "api" ? auth : session,
          }));
      // The dashboard's pages are a person's: 4 at once, not 16.
      const results = [
        ...(await compareHttp(targets("api"), { seconds: 2, rounds: 3 })),
        ...(await compareHttp(targets("dashboard"), { seconds: 2, rounds: 3, connections: 4 })),
      ];
      const spoiled = results.filter((r) => r.non2xx > 0 || r.requestsPerSecond === 0).map((r) => r.name);
      if (spoiled.length > 0)
        throw new Error(`No answers, or answers other than 2xx, from ${spoiled.join(", ")}: no figure holds.`);
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
    `Listings as the workspace grows: the API with 16 connections, the dashboard with 4; median of 3 interleaved 2 s rounds; ${loadGenerator().description}`,
  );
  console.log(table(["payments", "listing", "memory req/s", "p99 ms", "PostgreSQL req/s", "p99 ms"], rows));
  const largest = SIZES.at(-1) as number;
  const smallest = SIZES[0] as number;
  const misses: string[] = [];
  const at = (size: number, name: string) => byTarget.get(`${size} postgres ${name}`);
  // The goals are the API's first page and filters': not its second page, nor the accounts.
  for (const [name] of listings("", "").filter(([n, , where]) => where === "api" && !/second|accounts/.test(n))) {
    const atLargest = at(largest, name)?.requestsPerSecond ?? 0;
    const atSmallest = at(smallest, name)?.requestsPerSecond ?? 0;
    if (atLargest < GOAL_RPS) misses.push(`${name}: ${Math.round(atLargest)} req/s`);
    else if (atLargest < atSmallest / 2)
      misses.push(
        `${name}: ${(atLargest / atSmallest).toFixed(2)}x of its rate at ${smallest.toLocaleString("en-US")}`,
      );
  }
  const overviewP99 = at(largest, "dashboard overview")?.p99Ms ?? Number.POSITIVE_INFINITY;
  if (overviewP99 >= OVERVIEW_MS) misses.push(`dashboard overview: p99 ${overviewP99.toFixed(0)} ms`);
  console.log(
    misses.length === 0
      ? `PostgreSQL at ${largest.toLocaleString("en-US")} payments: the API's first page and filters >= ${GOAL_RPS} req/s and >= half their rate at ${smallest.toLocaleString("en-US")}, the overview's p99 under ${OVERVIEW_MS} ms: met`
      : `PostgreSQL at ${largest.toLocaleString("en-US")} payments: NOT met for ${misses.join("; ")}`,
  );
} finally {
  for (const stop of stops) stop();
  await postgres.stop();
}
