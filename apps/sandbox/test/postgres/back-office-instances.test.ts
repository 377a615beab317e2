import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_API_KEYS,
  istanbulDate,
  istanbulMidnightAfter,
  type RunningSandbox,
  seedWorkspace,
  startSandbox,
} from "../../src/index.js";
import { eventually } from "../support/eventually.js";
import { sandboxCall } from "../support/sandbox-call.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

/**
 * Two sandbox instances on one PostgreSQL database: settlement and reconciliation driven through both
 * at once happen exactly once, and an API key made or revoked on one is known to the other at once.
 */
const KEY = DEMO_API_KEYS[0];
const PAYMENTS = 300;

let databaseUrl: string;
let db: pg.Pool;
let a: RunningSandbox;
let b: RunningSandbox;

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
  const options = { databaseUrl, secret: TEST_SECRET, completeAfterSeconds: 30 };
  a = await startSandbox(options);
  b = await startSandbox(options);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await db.end();
});

const [from, to] = seedWorkspace(KEY)
  .accounts.filter((x) => x.currency === "TRY")
  .map((x) => x.id);

/** How many history entries of each cause each payment has, as the database holds them. */
async function causesPerPayment(cause: string): Promise<number[]> {
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM payment_history WHERE cause = $1 GROUP BY workspace, seq",
    [cause],
  );
  return rows.map((r) => Number(r.n));
}

describe("two instances, one database", () => {
  it("settles every completed payment exactly once and reconciles each statement line once, whichever instance runs it", async () => {
    const payments = Array.from({ length: PAYMENTS }, (_, i) => ({
      amount: 1_000 + i,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      reference: `INV-${i}`,
    }));
    for (let i = 0; i < PAYMENTS; i += 100) {
      const made = await sandboxCall(a.url, "POST", "/v1/payments/batch", { payments: payments.slice(i, i + 100) });
      expect(made.body.created).toBe(100);
    }
    const now = Date.parse((await sandboxCall(a.url, "POST", "/_sandbox/clock/advance", { seconds: 31 })).body.now);
    const cutoff = istanbulMidnightAfter(now);
    await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: (cutoff - now) / 1000 + 60 });
    // Both instances read at once: each wants completion and settlement done first.
    const reads = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sandboxCall(i % 2 ? a.url : b.url, "GET", "/v1/payments?limit=1000")),
    );
    for (const read of reads) expect(read.status).toBe(200);
    // A request does one chunk of time's work (250 completions) and the due-work loops the rest: a
    // read answered before another instance's chunk committed saw 250 settled, in a loaded run.
    type Listed = { status: string; settled_at: string }[];
    const listing = await eventually(async () => {
      const data = (await sandboxCall(b.url, "GET", "/v1/payments?limit=1000")).body.data as Listed;
      return data.filter((p) => p.status === "settled").length === PAYMENTS ? data : undefined;
    }, `all ${PAYMENTS} payments settled`);
    expect(listing.filter((p) => p.status === "settled")).toHaveLength(PAYMENTS);
    expect(new Set(listing.map((p) => p.settled_at))).toEqual(new Set([new Date(cutoff).toISOString()]));
    const settlements = await causesPerPayment("settlement");
    expect([settlements.length, Math.max(...settlements)]).toEqual([PAYMENTS, 1]);

    const valueDate = istanbulDate(cutoff);
    const statement = [
      "reference,amount_minor,currency,value_date",
      ...payments.map((p) => `${p.reference},${p.amount},TRY,${valueDate}`),
    ].join("\n");
    const runs = await Promise.all([
      sandboxCall(a.url, "POST", "/_sandbox/reconciliations", statement),
      sandboxCall(b.url, "POST", "/_sandbox/reconciliations", statement),
    ]);
    expect(runs.map((r) => r.status)).toEqual([201, 201]);
    const matched = runs.map((r) => r.body.counts.matched as number).sort((x, y) => x - y);
    expect(matched).toEqual([0, PAYMENTS]);
    expect(runs.filter((r) => r.body.repeat_of !== undefined)).toHaveLength(1);
    const reconciliations = await causesPerPayment("reconciliation");
    expect([reconciliations.length, Math.max(...reconciliations)]).toEqual([PAYMENTS, 1]);
    const after = (await sandboxCall(b.url, "GET", "/v1/payments?status=reconciled&limit=1000")).body.data;
    expect(after).toHaveLength(PAYMENTS);
  });

  it("knows a key made on one instance on the other, and refuses it there as soon as it is revoked", async () => {
    const made = await sandboxCall(a.url, "POST", "/_sandbox/api-keys", { name: "shared" });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect((await sandboxCall(b.url, "GET", "/v1/accounts", undefined, key)).status).toBe(200);
    expect((await sandboxCall(b.url, "DELETE", `/_sandbox/api-keys/${made.body.id}`)).status).toBe(200);
    const refused = await sandboxCall(a.url, "GET", "/v1/accounts", undefined, key);
    expect([refused.status, refused.body.message]).toEqual([401, expect.stringContaining("revoked")]);
    // Only a keyed hash is stored: neither the key nor its unkeyed SHA-256 is anywhere in the table.
    const { rows } = await db.query("SELECT * FROM api_keys");
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key.slice(11, 30));
  });
});
