/**
 * The dashboard's exports: CSV and PDF of a whole workspace, streamed from the in-process sandbox to a
 * reader that discards the bytes, at 20,000 payments (the baseline, same run) and at 100,000.
 * Reports records/s and how much the process's RSS grew during each export. Goal: flat memory, the
 * growth at 100k about that at 20k.
 */
import { table } from "@payspec/bench-kit";
import { DEMO_API_KEYS, seedWorkspace, startSandbox } from "@payspec/sandbox";
import { sampleRss } from "./rss-sampler.js";

const key = DEMO_API_KEYS[0];
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

// A completion delay far beyond the run keeps every payment pending and the balances untouched.
const sandbox = await startSandbox({ completeAfterSeconds: 1_000_000 });
const dashboard = `${sandbox.url}/_sandbox/dashboard`;

/** Signs in like a browser: the form's token and its cookie, sent from the dashboard's own origin. */
async function signIn(): Promise<string> {
  const form = await fetch(dashboard);
  const formCookie = (form.headers.getSetCookie()[0] ?? "").split(";")[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const signedIn = await fetch(`${dashboard}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: formCookie, origin: sandbox.url },
    body: new URLSearchParams({ _csrf: token, apiKey: key }),
  });
  const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("payspec_dashboard_session"));
  if (!session) throw new Error(`sign-in answered ${signedIn.status}`);
  return session.split(";")[0] as string;
}

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
  const first = await fetch(`${sandbox.url}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const have = ((await first.json()) as { pagination: { total: number } }).pagination.total;
  for (let made = have; made < records; made += 500) {
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

try {
  const cookie = await signIn();
  const rows = [];
  let latency: Awaited<ReturnType<typeof otherRequestsLatency>> | undefined;
  for (const records of [20_000, 100_000]) {
    await topUp(records);
    rows.push(await exportOnce(cookie, "csv", records), await exportOnce(cookie, "pdf", records));
    if (records === 20_000) {
      await topUp(50_000);
      latency = await otherRequestsLatency(() => exportOnce(cookie, "pdf", 50_000));
    }
  }
  console.log("\nDashboard exports (in-process sandbox, memory store), one run each\n");
  console.log(
    table(
      ["format", "records", "seconds", "records/s", "output MB", "RSS growth MB"],
      rows.map((r) => [r.format, r.records, r.seconds, r.perSecond, r.mb, r.growthMb]),
    ),
  );
  for (const format of ["csv", "pdf"]) {
    const [small, large] = rows.filter((r) => r.format === format);
    console.log(
      `${format.toUpperCase()}: RSS growth at 100k is ${(large?.growthMb ?? 0).toFixed(1)} MB vs ${(small?.growthMb ?? 0).toFixed(1)} MB at 20k (flat: about the same)`,
    );
  }
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
  await sandbox.close();
}
