/**
 * A team's shared sandbox after a load test (issue #50's soak), bounded: POST /v1/payments at full
 * rate for SOAK_SECONDS (wrk on its own core, the sandbox process pinned to the other), then one clock
 * advance makes every payment of the run due at once. In memory and on PostgreSQL, one run each:
 * - the payments made and the rate;
 * - the sandbox process's RSS before and after, and the growth per payment;
 * - the first request of that workspace after they fell due (goal: about one chunk, since due work
 *   runs in the background, never in a request's path);
 * - how long until the background loop has completed them all (bounded at 5 minutes).
 * The issue measured 3.9 s (memory, 3.96 M payments) and 93.5 s (PostgreSQL, 2.2 M) for that first
 * request, before due work moved to the background.
 */
import { readFileSync } from "node:fs";
import { runWrk, startProcess, table, wrkAvailable } from "@payspec/bench-kit";
import { startPostgres } from "@payspec/test-postgres";
import { auth, createBody, json, paymentsTotal, sandboxBin, url } from "./sandbox-fixture.js";

const SOAK_SECONDS = 30;
const PORTS = { memory: 4761, postgres: 4762 };

/** A process's resident memory, from /proc (Linux), in bytes. */
function rssBytes(pid: number | undefined): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

async function soak(store: "memory" | "postgres", port: number, databaseUrl?: string) {
  process.stderr.write(`${store}: ${SOAK_SECONDS} s of creates…\n`);
  const base = url(port);
  // Nothing falls due during the soak; the advance afterwards makes all of it due at once.
  const env: NodeJS.ProcessEnv = { PORT: String(port), PAYSPEC_COMPLETE_AFTER_SECONDS: "3600" };
  if (databaseUrl) Object.assign(env, { PAYSPEC_DATABASE_URL: databaseUrl, PAYSPEC_SANDBOX_SECRET: "bench-secret" });
  const stop = await startProcess(process.execPath, [sandboxBin], `${base}/`, { env, pinned: true });
  try {
    const rssBefore = rssBytes(stop.pid);
    const before = await paymentsTotal(base);
    const load = await runWrk({
      url: `${base}/v1/payments`,
      method: "POST",
      headers: json,
      body: createBody,
      seconds: SOAK_SECONDS,
      connections: 16,
    });
    const made = (await paymentsTotal(base)) - before;
    const rssAfter = rssBytes(stop.pid);
    await fetch(`${base}/_sandbox/clock/advance`, { method: "POST", headers: json, body: '{"seconds": 3700}' });
    const start = performance.now();
    const first = await fetch(`${base}/v1/accounts`, { headers: auth });
    const firstMs = performance.now() - start;
    if (first.status !== 200) throw new Error(`GET /v1/accounts answered ${first.status} after the advance.`);
    let pending = made;
    while (pending > 0 && performance.now() - start < 300_000) {
      pending = await paymentsTotal(base, "pending");
      if (pending > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return {
      store,
      requestsPerSecond: load.requestsPerSecond,
      made,
      rssBeforeMb: rssBefore / 1e6,
      rssAfterMb: rssAfter / 1e6,
      // Only the in-memory store keeps payments in the process; on PostgreSQL its growth is pools and code.
      bytesPerPayment: databaseUrl ? undefined : (rssAfter - rssBefore) / made,
      firstMs,
      completedSeconds: pending === 0 ? (performance.now() - start) / 1000 : undefined,
      pending,
    };
  } finally {
    stop();
  }
}

if (!wrkAvailable()) {
  console.log("The soak needs wrk (scripts/install-system-deps.sh installs it); skipped.");
} else {
  const postgres = await startPostgres({ fast: false });
  try {
    const rows = [
      await soak("memory", PORTS.memory),
      await soak("postgres", PORTS.postgres, await postgres.createDatabase()),
    ];
    console.log(
      `\nA ${SOAK_SECONDS} s create soak, then all of it due at once (one run each; RSS of the sandbox process)\n`,
    );
    console.log(
      table(
        [
          "store",
          "creates/s",
          "payments",
          "RSS before MB",
          "RSS after MB",
          "RSS bytes per payment",
          "first request after ms",
          "all completed s",
        ],
        rows.map((r) => [
          r.store,
          r.requestsPerSecond,
          r.made,
          r.rssBeforeMb,
          r.rssAfterMb,
          r.bytesPerPayment ?? "-",
          r.firstMs,
          r.completedSeconds ?? `not within 5 min (${r.pending} still pending)`,
        ]),
      ),
    );
  } finally {
    await postgres.stop();
  }
}
