import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "../../../../test/support/eventually.js";
import { pdfRuns } from "../../../../test/support/pdf-text.js";
import { sandboxCall } from "../../../../test/support/sandbox-call.js";
import { type SandboxProcess, startSandboxProcess } from "../../../../test/support/sandbox-process.js";
import { freshDatabase, TEST_SECRET } from "../../../../test/support/test-stores.js";
import { DEMO_API_KEYS, seedWorkspace } from "../../../index.js";

/**
 * A queued export survives the death of the instance writing it: `payspec-sandbox` killed with
 * SIGKILL mid-file, another instance on the same database takes the job over when its lease runs
 * out and finishes it. One file, one e-mail.
 */
const KEY = DEMO_API_KEYS[0];
const PAYMENTS = 20_000;

let databaseUrl: string;
let db: pg.Pool;
const instances: SandboxProcess[] = [];
const start = async (leaseSeconds = 2, url = databaseUrl) => {
  const instance = await startSandboxProcess({
    PAYSPEC_DATABASE_URL: url,
    PAYSPEC_SANDBOX_SECRET: TEST_SECRET,
    PAYSPEC_JOB_LEASE_SECONDS: String(leaseSeconds),
  });
  instances.push(instance);
  return instance;
};

/** PAYMENTS payments in the workspace, a report recipient, and a queued PDF export of them all. */
async function queuedExport(sandbox: SandboxProcess): Promise<string> {
  const [from, to] = seedWorkspace(KEY)
    .accounts.filter((acc) => acc.currency === "TRY")
    .map((acc) => acc.id);
  for (let made = 0; made < PAYMENTS; made += 500) {
    const payments = Array.from({ length: 500 }, (_, i) => ({
      amount: 1,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      reference: `INV-${made + i}`,
    }));
    expect((await sandboxCall(sandbox.url, "POST", "/v1/payments/batch", { payments })).body.created).toBe(500);
  }
  await sandboxCall(sandbox.url, "PUT", "/_sandbox/settings/report-recipients", { recipients: ["ops@example.com"] });
  const queued = await sandboxCall(sandbox.url, "POST", "/_sandbox/exports", { format: "pdf" });
  expect(queued.status).toBe(202);
  return queued.body.id;
}

/** Waits (bounded) until the job's file is partly written: running, with progress reported. */
async function partlyWritten(pool: pg.Pool, id: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await pool.query("SELECT state, rows_written FROM export_jobs WHERE id = $1", [id]);
    if (rows[0]?.state === "running" && rows[0].rows_written > 0) return;
    if (rows[0]?.state === "ready") throw new Error("The export finished too soon: make it bigger");
    if (Date.now() > deadline) throw new Error("The export did not start within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits (bounded) for the job to be ready, as the given instance reports it. */
async function ready(sandbox: SandboxProcess, id: string) {
  return eventually(
    async () => {
      const job = (await sandboxCall(sandbox.url, "GET", `/_sandbox/exports/${id}`)).body;
      return job.state === "ready"
        ? (job as { state: string; rows_written?: number; download_url?: string })
        : undefined;
    },
    `Export ${id} becoming ready`,
    { withinMs: 30_000, everyMs: 100 },
  );
}

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
});
afterAll(async () => {
  for (const instance of instances) await instance.stop();
  await db.end();
});

it("finishes a queued export on another instance after the one writing it is killed, with one file and one e-mail", async () => {
  const a = await start();
  const id = await queuedExport(a);
  // Killed once it has written part of the file (its first progress report), before the end.
  await partlyWritten(db, id);
  await a.stop("SIGKILL");

  const b = await start();
  const job = await ready(b, id);
  expect(job).toMatchObject({ state: "ready", rows_written: PAYMENTS });
  const attempts = await db.query("SELECT attempts FROM export_jobs WHERE id = $1", [id]);
  expect(attempts.rows[0].attempts).toBe(2);
  const files = await db.query("SELECT count(*) AS n FROM export_files");
  const mails = await db.query("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Your export%'");
  expect([Number(files.rows[0].n), Number(mails.rows[0].n)]).toEqual([1, 1]);
  const pdf = Buffer.from(
    await (await fetch(String(job.download_url).replace(/^http:\/\/[^/]+/, b.url))).arrayBuffer(),
  );
  // The count, on the last page, is grouped as the PDF's language writes it (English: 20,000).
  expect((await pdfRuns(pdf, { pages: "last" })).runs).toContain(`${PAYMENTS.toLocaleString("en-US")} payments.`);
}, 120_000);

it("hands a queued export to another instance at once when the one writing it is stopped with SIGTERM", async () => {
  // Leases far longer than the test: only a release lets another instance start the job.
  const url = await freshDatabase();
  const pool = new pg.Pool({ connectionString: url });
  try {
    const a = await start(600, url);
    const b = await start(600, url);
    const id = await queuedExport(a);
    await partlyWritten(pool, id);
    const owner = (await pool.query("SELECT lease_owner FROM export_jobs WHERE id = $1", [id])).rows[0]?.lease_owner;
    // Whichever instance took it is stopped; the other finishes it.
    const [stopping, staying] = String(owner).includes(`/${b.child.pid}/`) ? [b, a] : [a, b];
    const exit = new Promise<number | null>((resolve) => stopping.child.once("exit", (code) => resolve(code)));
    await stopping.stop("SIGTERM");
    expect(await exit).toBe(0);
    const job = await ready(staying, id);
    expect(job).toMatchObject({ state: "ready", rows_written: PAYMENTS });
    const { rows } = await pool.query("SELECT attempts FROM export_jobs WHERE id = $1", [id]);
    expect(rows[0].attempts).toBe(2);
    const files = await pool.query("SELECT count(*) AS n FROM export_files");
    const mails = await pool.query("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Your export%'");
    expect([Number(files.rows[0].n), Number(mails.rows[0].n)]).toEqual([1, 1]);
  } finally {
    await pool.end();
  }
}, 120_000);
