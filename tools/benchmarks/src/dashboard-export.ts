/**
 * The dashboard's exports: CSV and PDF (DejaVu Sans Mono embedded) of a whole workspace, streamed
 * from the in-process sandbox to a reader that discards the bytes, at 20,000 payments (the baseline,
 * same run) and at 100,000, on memory and PostgreSQL; and a queued 100,000-row export from its
 * request to its e-mail in the outbox. Reports records/s and how much the process's RSS grew during
 * each export. Goals: PDF at least 10,000 rows/s; flat memory, the growth at 100k about that at 20k.
 */
import { table } from "@payspec/bench-kit";
import { DEMO_API_KEYS, type RunningSandbox, seedWorkspace, startSandbox } from "@payspec/sandbox";
import { startPostgres } from "@payspec/test-postgres";
import { sampleRss } from "./rss-sampler.js";
import { dashboardSession, paymentsTotal } from "./sandbox-fixture.js";

const key = DEMO_API_KEYS[0];
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

let sandbox: RunningSandbox;
let dashboard: string;

/**
 * Latencies of other requests (another workspace's accounts, one at a time) while `during` runs, and
 * with nothing running, for the same count: the export must leave the rest of the sandbox answering.
 */
async function otherRequestsLatency(during: () => Promise<unknown>) {
  const other = { authorization: `Bearer ${DEMO_API_KEYS[1]}` };
  const sample = async (until: () => boolean, max: number) => {
    const ms: number[] = [];
    while (!until() && ms.length < max) {
      const start = performance.now();
      await (await fetch(`${sandbox.url}/v1/accounts`, { headers: other })).arrayBuffer();
      ms.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return ms;
  };
  let done = false;
  const work = during().finally(() => {
    done = true;
  });
  const busy = await sample(() => done, 100_000);
  await work;
  const idle = await sample(() => false, busy.length);
  const p = (values: number[], q: number) =>
    [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) * q)] ?? 0;
  return {
    count: busy.length,
    idleP50: p(idle, 0.5),
    idleP99: p(idle, 0.99),
    busyP50: p(busy, 0.5),
    busyP99: p(busy, 0.99),
  };
}

async function topUp(records: number): Promise<void> {
  const entry = { amount: 100, currency: "TRY", method: "eft", from_account: from, to_account: to };
  for (let made = await paymentsTotal(sandbox.url); made < records; made += 500) {
    const answer = await fetch(`${sandbox.url}/v1/payments/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ payments: Array.from({ length: Math.min(500, records - made) }, () => entry) }),
    });
    if (answer.status !== 200) throw new Error(`batch failed: ${answer.status}`);
  }
}

async function exportOnce(cookie: string, format: "csv" | "pdf", records: number) {
  const rss = sampleRss();
  const start = process.hrtime.bigint();
  const answer = await fetch(`${dashboard}/export.${format}`, { headers: { cookie } });
  let bytes = 0;
  for await (const chunk of answer.body ?? []) bytes += (chunk as Uint8Array).length;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { growthMb } = rss.stop();
  if (answer.status !== 200) throw new Error(`export.${format} answered ${answer.status}`);
  return {
    format,
    records,
    seconds,
    perSecond: records / seconds,
    mb: bytes / 1e6,
    growthMb,
  };
}

/** From the request of a queued export to its e-mail in the outbox (with its link to the file). */
async function queuedExport(records: number) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  await fetch(`${sandbox.url}/_sandbox/settings/report-recipients`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ recipients: ["bench@example.com"] }),
  });
  const start = process.hrtime.bigint();
  const queued = await fetch(`${sandbox.url}/_sandbox/exports`, {
    method: "POST",
    headers,
    body: JSON.stringify({ format: "pdf" }),
  });
  if (queued.status !== 202) throw new Error(`POST /_sandbox/exports answered ${queued.status}`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const outbox = (await (await fetch(`${sandbox.url}/_sandbox/outbox`, { headers })).json()) as {
      data: { subject: string }[];
    };
    if (outbox.data.some((m) => m.subject.startsWith("Your export"))) break;
    if (Date.now() > deadline) throw new Error("the queued export's e-mail did not come within 120 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { records, seconds, perSecond: records / seconds };
}

type ExportRow = Awaited<ReturnType<typeof exportOnce>> & { store: string };

async function runOn(store: string, databaseUrl?: string) {
  process.stderr.write(`${store}…\n`);
  // A completion delay far beyond the run keeps every payment pending and the balances untouched;
  // no export is queued here but the one measured as queued.
  sandbox = await startSandbox({
    completeAfterSeconds: 1_000_000,
    exportQueueRows: 1_000_000,
    ...(databaseUrl ? { databaseUrl, secret: "bench-secret" } : {}),
  });
  dashboard = `${sandbox.url}/_sandbox/dashboard`;
  try {
    const cookie = await dashboardSession(sandbox.url);
    const rows: ExportRow[] = [];
    let latency: Awaited<ReturnType<typeof otherRequestsLatency>> | undefined;
    for (const records of [20_000, 100_000]) {
      await topUp(records);
      rows.push(
        { store, ...(await exportOnce(cookie, "csv", records)) },
        { store, ...(await exportOnce(cookie, "pdf", records)) },
      );
      if (records === 20_000 && store === "memory") {
        await topUp(50_000);
        latency = await otherRequestsLatency(() => exportOnce(cookie, "pdf", 50_000));
      }
    }
    return { rows, latency, queued: { store, ...(await queuedExport(100_000)) } };
  } finally {
    await sandbox.close();
  }
}

const postgres = await startPostgres({ fast: false });
try {
  const memory = await runOn("memory");
  const onPostgres = await runOn("postgres", await postgres.createDatabase());
  const rows = [...memory.rows, ...onPostgres.rows];
  const latency = memory.latency;
  console.log("\nDashboard exports (in-process sandbox), one run each; the 20,000-row run is the baseline\n");
  console.log(
    table(
      [
        "store",
        "format",
        "records",
        "seconds",
        "records/s",
        "s per record vs 20k",
        "output MB",
        "RSS growth MB",
        "goal",
      ],
      rows.map((r) => {
        const base = rows.find(
          (b) => b.store === r.store && b.format === r.format && b.records === 20_000,
        ) as ExportRow;
        return [
          r.store,
          r.format,
          r.records,
          r.seconds,
          r.perSecond,
          r.seconds / r.records / (base.seconds / base.records),
          r.mb,
          r.growthMb,
          r.format === "pdf" ? ">= 10,000 rows/s" : "",
        ];
      }),
    ),
  );
  for (const store of ["memory", "postgres"]) {
    for (const format of ["csv", "pdf"]) {
      const [small, large] = rows.filter((r) => r.store === store && r.format === format);
      console.log(
        `${store} ${format.toUpperCase()}: RSS growth at 100k is ${(large?.growthMb ?? 0).toFixed(1)} MB vs ${(small?.growthMb ?? 0).toFixed(1)} MB at 20k (flat: about the same)`,
      );
    }
  }
  console.log("\nA queued 100,000-row PDF export, from its request to its e-mail in the outbox\n");
  console.log(
    table(
      ["store", "records", "seconds", "records/s"],
      [memory.queued, onPostgres.queued].map((q) => [q.store, q.records, q.seconds, q.perSecond]),
    ),
  );
  if (latency) {
    console.log("\nOther requests (GET /v1/accounts of another workspace) while a 50,000-row PDF export runs\n");
    console.log(
      table(
        ["requests", "p50 ms idle", "p99 ms idle", "p50 ms during", "p99 ms during", "p99 ratio", "goal p99"],
        [
          [
            latency.count,
            latency.idleP50,
            latency.idleP99,
            latency.busyP50,
            latency.busyP99,
            latency.busyP99 / Math.max(latency.idleP99, 0.001),
            "< 100 ms",
          ],
        ],
      ),
    );
  }
} finally {
  await postgres.stop();
}
