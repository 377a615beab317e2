/**
 * The back office: settling 10,000, 50,000 and 100,000 completed payments in one clock advance, and
 * reconciling a statement of 10,000 and 50,000 lines against as many settled payments, in memory and
 * on PostgreSQL. The 10,000 runs are each store's same-run baseline (time per item over the
 * baseline's shows linearity: about 1). Reconciliation also reports the process's peak RSS and how
 * far it rose (the sandbox runs in this process).
 */
import { table } from "@payspec/bench-kit";
import {
  DEMO_API_KEYS,
  istanbulDate,
  istanbulMidnightAfter,
  type RunningSandbox,
  seedWorkspace,
  startSandbox,
} from "@payspec/sandbox";
import { startPostgres } from "@payspec/test-postgres";
import { sampleRss } from "./rss-sampler.js";
import { paymentsTotal } from "./sandbox-fixture.js";

const [key] = DEMO_API_KEYS;
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];
const auth = { authorization: `Bearer ${key}` };
const json = { ...auth, "content-type": "application/json" };

async function fill(sandbox: RunningSandbox, count: number): Promise<void> {
  for (let made = 0; made < count; made += 500) {
    const payments = Array.from({ length: Math.min(500, count - made) }, (_, i) => ({
      amount: 1,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      reference: `INV-${made + i}`,
    }));
    const answer = await fetch(`${sandbox.url}/v1/payments/batch`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ payments }),
    });
    if (answer.status !== 200) throw new Error(`batch answered ${answer.status}`);
  }
}

async function advance(sandbox: RunningSandbox, seconds: number): Promise<number> {
  const answer = await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ seconds }),
  });
  return Date.parse(((await answer.json()) as { now: string }).now);
}

async function timedRead(sandbox: RunningSandbox): Promise<number> {
  const start = performance.now();
  const answer = await fetch(`${sandbox.url}/v1/accounts`, { headers: auth });
  if (answer.status !== 200) throw new Error(`accounts answered ${answer.status}`);
  await answer.text();
  return (performance.now() - start) / 1000;
}

/** `count` payments completed, then settled by one advance past the next cut-off (the timed read). */
async function settle(sandbox: RunningSandbox, count: number): Promise<{ seconds: number; valueDate: string }> {
  await fill(sandbox, count);
  const now = await advance(sandbox, 31);
  await timedRead(sandbox);
  const cutoff = istanbulMidnightAfter(now);
  await advance(sandbox, (cutoff - now) / 1000 + 60);
  const seconds = await timedRead(sandbox);
  const settled = await paymentsTotal(sandbox.url, "settled");
  if (settled !== count) throw new Error(`${settled} of ${count} settled`);
  return { seconds, valueDate: istanbulDate(cutoff) };
}

interface Row {
  readonly store: string;
  readonly count: number;
  readonly settleSeconds: number;
  /** The reconciliation run, for counts up to 50,000. */
  readonly reconciliation?: { lines: number; seconds: number; peakMb: number; growthMb: number };
}

async function run(store: string, count: number, databaseUrl?: string): Promise<Row> {
  process.stderr.write(`${store} ${count}…\n`);
  const sandbox = await startSandbox({
    completeAfterSeconds: 30,
    ...(databaseUrl ? { databaseUrl, secret: "bench-secret" } : {}),
  });
  try {
    const settled = await settle(sandbox, count);
    if (count > 50_000) return { store, count, settleSeconds: settled.seconds };
    const lines = count;
    const statement = [
      "reference,amount_minor,currency,value_date",
      ...Array.from({ length: lines }, (_, i) => `INV-${i},1,TRY,${settled.valueDate}`),
    ].join("\n");
    const rss = sampleRss();
    const start = performance.now();
    const answer = await fetch(`${sandbox.url}/_sandbox/reconciliations`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/csv" },
      body: statement,
    });
    const body = (await answer.json()) as { counts: { matched: number } };
    const reconcileSeconds = (performance.now() - start) / 1000;
    const memory = rss.stop();
    if (answer.status !== 201 || body.counts.matched !== lines) {
      throw new Error(`reconciliation answered ${answer.status}, ${body.counts?.matched} matched of ${lines}`);
    }
    return {
      store,
      count,
      settleSeconds: settled.seconds,
      reconciliation: { lines, seconds: reconcileSeconds, ...memory },
    };
  } finally {
    await sandbox.close();
  }
}

const postgres = await startPostgres({ fast: false });
try {
  const rows: Row[] = [];
  for (const count of [10_000, 50_000, 100_000]) rows.push(await run("memory", count));
  for (const count of [10_000, 50_000, 100_000]) {
    rows.push(await run("postgres", count, await postgres.createDatabase()));
  }
  const base = (store: string) => rows.find((b) => b.store === store && b.count === 10_000) as Row;
  console.log("\nSettling completed payments in one clock advance (in-process sandbox), one run each\n");
  console.log(
    table(
      ["store", "completed payments", "seconds", "payments/s", "s per payment vs 10k"],
      rows.map((r) => [
        r.store,
        r.count,
        r.settleSeconds,
        r.count / r.settleSeconds,
        r.settleSeconds / r.count / (base(r.store).settleSeconds / base(r.store).count),
      ]),
    ),
  );
  console.log("\nReconciling a statement against as many settled payments, one run each\n");
  console.log(
    table(
      ["store", "lines", "seconds", "lines/s", "s per line vs 10k", "peak RSS MB", "RSS growth MB"],
      rows.flatMap(({ store, reconciliation: r }) => {
        const baseline = base(store).reconciliation;
        if (!r || !baseline) return [];
        return [
          [
            store,
            r.lines,
            r.seconds,
            r.lines / r.seconds,
            r.seconds / r.lines / (baseline.seconds / baseline.lines),
            r.peakMb,
            r.growthMb,
          ],
        ];
      }),
    ),
  );
} finally {
  await postgres.stop();
}
