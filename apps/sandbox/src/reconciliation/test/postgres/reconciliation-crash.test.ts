import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sandboxCall } from "../../../../test/support/sandbox-call.js";
import { type SandboxProcess, startSandboxProcess } from "../../../../test/support/sandbox-process.js";
import { freshDatabase, TEST_SECRET } from "../../../../test/support/test-stores.js";
import { DEMO_API_KEYS, istanbulDate, istanbulMidnightAfter, seedWorkspace } from "../../../index.js";

/**
 * A reconciliation is one transaction: a `payspec-sandbox` killed with SIGKILL while it imports a
 * statement leaves either the whole run (recorded, every match reconciled) or nothing at all.
 */
const KEY = DEMO_API_KEYS[0];
const LINES = 5_000;

let databaseUrl: string;
let db: pg.Pool;
let sandbox: SandboxProcess;
const env = () => ({ PAYSPEC_DATABASE_URL: databaseUrl, PAYSPEC_SANDBOX_SECRET: TEST_SECRET });

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
  sandbox = await startSandboxProcess(env());
});
afterAll(async () => {
  await sandbox.stop();
  await db.end();
});

async function recorded(): Promise<{ runs: number; reconciled: number }> {
  const runs = await db.query("SELECT count(*) AS n FROM reconciliation_runs");
  const reconciled = await db.query("SELECT count(*) AS n FROM payments WHERE status = 'reconciled'");
  return { runs: Number(runs.rows[0].n), reconciled: Number(reconciled.rows[0].n) };
}

it("keeps a statement import whole or not at all when the instance is killed with SIGKILL during it", async () => {
  const [from, to] = seedWorkspace(KEY)
    .accounts.filter((a) => a.currency === "TRY")
    .map((a) => a.id);
  for (let made = 0; made < LINES; made += 500) {
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
  const now = Date.parse((await sandboxCall(sandbox.url, "POST", "/_sandbox/clock/advance", { seconds: 60 })).body.now);
  const cutoff = istanbulMidnightAfter(now);
  await sandboxCall(sandbox.url, "POST", "/_sandbox/clock/advance", { seconds: (cutoff - now) / 1000 + 60 });
  // More fell due than a request completes itself (one chunk): the due-work loop settles the rest.
  const settled = async () =>
    (await sandboxCall(sandbox.url, "GET", "/v1/payments?status=settled&limit=1")).body.pagination.total;
  const deadline = Date.now() + 20_000;
  while ((await settled()) < LINES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await settled()).toBe(LINES);

  const valueDate = istanbulDate(cutoff);
  const statement = [
    "reference,amount_minor,currency,value_date",
    ...Array.from({ length: LINES }, (_, i) => `INV-${i},1,TRY,${valueDate}`),
  ].join("\n");
  const importing = sandboxCall(sandbox.url, "POST", "/_sandbox/reconciliations", statement).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 40));
  sandbox.child.kill("SIGKILL");
  await sandbox.exited;
  await importing;

  const after = await recorded();
  // Whichever side of the commit the kill fell on: all of the run, or none of it.
  expect(after.runs).toBeLessThanOrEqual(1);
  expect(after.reconciled).toBe(after.runs === 0 ? 0 : LINES);

  // Restarted, the same statement finishes the job; nothing is reconciled twice.
  sandbox = await startSandboxProcess(env());
  const retried = await sandboxCall(sandbox.url, "POST", "/_sandbox/reconciliations", statement);
  expect(retried.status).toBe(201);
  expect(retried.body.counts.matched + retried.body.counts.already_reconciled).toBe(LINES);
  const final = await recorded();
  expect(final.reconciled).toBe(LINES);
  const history = await db.query(
    "SELECT max(n) AS most FROM (SELECT count(*) AS n FROM payment_history WHERE cause = 'reconciliation' GROUP BY seq) c",
  );
  expect(Number(history.rows[0].most)).toBe(1);
});
