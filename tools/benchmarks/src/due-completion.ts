/**
 * Completing due payments: 10,000, 50,000 and 100,000 payments fall due at once (one clock advance),
 * then one request of the workspace completes them all; meanwhile another workspace's requests are
 * timed. In memory and on PostgreSQL. The 10,000 run is each store's baseline: seconds per payment
 * at 50k and 100k over that at 10k shows linearity (about 1). Goal: 50,000 in under 10 s.
 */
import { table } from "@payspec/bench-kit";
import { DEMO_API_KEYS, type RunningSandbox, seedWorkspace, startSandbox } from "@payspec/sandbox";
import { startPostgres } from "@payspec/test-postgres";

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

async function run(store: string, count: number, databaseUrl?: string) {
  process.stderr.write(`${store} ${count}…\n`);
  const sandbox = await startSandbox({
    completeAfterSeconds: 30,
    ...(databaseUrl ? { databaseUrl, secret: "bench-secret" } : {}),
  });
  try {
    await fill(sandbox, count);
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
    const seconds = (performance.now() - start) / 1000;
    done = true;
    await other;
    if (answer.status !== 200) throw new Error(`accounts answered ${answer.status}`);
    const page = await fetch(`${sandbox.url}/v1/payments?status=completed&limit=1`, { headers: json });
    const completed = ((await page.json()) as { pagination: { total: number } }).pagination.total;
    if (completed !== count) throw new Error(`${completed} of ${count} completed`);
    const worst = Math.max(0, ...others);
    return { store, count, seconds, worstOtherMs: worst };
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
  console.log("\nCompleting due payments after one clock advance (in-process sandbox), one run each\n");
  console.log(
    table(
      ["store", "due payments", "seconds", "payments/s", "s per payment vs 10k", "worst other-workspace ms"],
      rows.map((r) => {
        const base = rows.find((b) => b.store === r.store && b.count === 10_000) as (typeof rows)[number];
        return [
          r.store,
          r.count,
          r.seconds,
          r.count / r.seconds,
          r.seconds / r.count / (base.seconds / base.count),
          r.worstOtherMs,
        ];
      }),
    ),
  );
} finally {
  await postgres.stop();
}
