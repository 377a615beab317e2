/**
 * Due payments after a load test: 10,000, 50,000 and 100,000 payments fall due at once (one clock
 * advance). Due work is done in the background (every instance's due-work loop, a chunk at a time
 * under the workspace's lock), never in a request's path, so the row reports:
 * - the first request of that workspace after they fell due (goal: no longer than one chunk),
 * - how long until the background loop has completed them all (payments/s),
 * - the worst answer another workspace got meanwhile,
 * - in memory, the heap each payment costs (the bound PAYSPEC_MEMORY_MAX_PAYMENTS is set from it).
 * In memory and on PostgreSQL; the 10,000 run is each store's baseline for linearity (about 1).
 */
import { table } from "@payspec/bench-kit";
import { DEMO_API_KEYS, type RunningSandbox, seedWorkspace, startSandbox } from "@payspec/sandbox";
import { startPostgres } from "@payspec/test-postgres";
import { paymentsTotal } from "./sandbox-fixture.js";

const [key, otherKey] = DEMO_API_KEYS;
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];
const json = { authorization: `Bearer ${key}`, "content-type": "application/json" };

async function fill(sandbox: RunningSandbox, count: number): Promise<void> {
  const entry = { amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to };
  for (let made = 0; made < count; made += 500) {
    const answer = await fetch(`${sandbox.url}/v1/payments/batch`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ payments: Array.from({ length: Math.min(500, count - made) }, () => entry) }),
    });
    if (answer.status !== 200) throw new Error(`batch answered ${answer.status}`);
  }
}

/** The heap in use after a full collection (run with --expose-gc; without it, as it is). */
function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function run(store: string, count: number, databaseUrl?: string) {
  process.stderr.write(`${store} ${count}…\n`);
  const sandbox = await startSandbox({
    completeAfterSeconds: 30,
    ...(databaseUrl ? { databaseUrl, secret: "bench-secret" } : {}),
  });
  try {
    const heapBefore = heapUsed();
    await fill(sandbox, count);
    // Only the in-memory store keeps payments in this process's heap.
    const bytesPerPayment = databaseUrl ? undefined : (heapUsed() - heapBefore) / count;
    await fetch(`${sandbox.url}/_sandbox/clock/advance`, { method: "POST", headers: json, body: '{"seconds": 60}' });
    let done = false;
    const others: number[] = [];
    const other = (async () => {
      while (!done) {
        const start = performance.now();
        await (await fetch(`${sandbox.url}/v1/accounts`, { headers: { authorization: `Bearer ${otherKey}` } })).text();
        others.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const start = performance.now();
    const answer = await fetch(`${sandbox.url}/v1/accounts`, { headers: json });
    const firstMs = performance.now() - start;
    if (answer.status !== 200) throw new Error(`accounts answered ${answer.status}`);
    // The background loop completes the rest; bounded at 5 minutes.
    let completed = 0;
    while (completed < count && performance.now() - start < 300_000) {
      completed = await paymentsTotal(sandbox.url, "completed");
      if (completed < count) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - start) / 1000;
    done = true;
    await other;
    if (completed !== count) throw new Error(`${completed} of ${count} completed within 5 minutes`);
    const worst = Math.max(0, ...others);
    return { store, count, firstMs, seconds, worstOtherMs: worst, bytesPerPayment };
  } finally {
    await sandbox.close();
  }
}

const postgres = await startPostgres({ fast: false });
try {
  const rows: Awaited<ReturnType<typeof run>>[] = [];
  for (const count of [10_000, 50_000, 100_000]) rows.push(await run("memory", count));
  for (const count of [10_000, 50_000, 100_000])
    rows.push(await run("postgres", count, await postgres.createDatabase()));
  console.log("\nDue payments after one clock advance (in-process sandbox), one run each\n");
  console.log(
    table(
      [
        "store",
        "due payments",
        "first request ms",
        "all completed s",
        "payments/s",
        "s per payment vs 10k",
        "worst other-workspace ms",
        "heap bytes per payment",
      ],
      rows.map((r) => {
        const base = rows.find((b) => b.store === r.store && b.count === 10_000) as (typeof rows)[number];
        return [
          r.store,
          r.count,
          r.firstMs,
          r.seconds,
          r.count / r.seconds,
          r.seconds / r.count / (base.seconds / base.count),
          r.worstOtherMs,
          r.bytesPerPayment === undefined ? "-" : r.bytesPerPayment,
        ];
      }),
    ),
  );
} finally {
  await postgres.stop();
}
