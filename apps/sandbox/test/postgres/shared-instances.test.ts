import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEYS, DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET, seedWorkspace } from "../../src/index.js";
import { SandboxSecret } from "../../src/infrastructure/secret/sandbox-secret.js";
import { settlementOff } from "../support/clock-moves.js";
import { cardPayment } from "../support/harness.js";
import { type SandboxProcess, startSandboxProcess } from "../support/sandbox-process.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

/**
 * Two `payspec-sandbox` processes on one PostgreSQL database, a bounded concurrent workload spread
 * across both, then the invariants a shared sandbox promises. Then one is killed with SIGKILL under
 * load and restarted: nothing it acknowledged may be missing.
 */
const KEY = DEMO_API_KEYS[0];
const COMPLETE_AFTER_SECONDS = 30;
const MONEY_MOVED = new Set(["completed", "settled", "reconciled"]);

let databaseUrl: string;
let db: pg.Pool;
let instances: SandboxProcess[] = [];
const env = () => ({
  PAYSPEC_DATABASE_URL: databaseUrl,
  PAYSPEC_SANDBOX_SECRET: TEST_SECRET,
  PAYSPEC_COMPLETE_AFTER_SECONDS: String(COMPLETE_AFTER_SECONDS),
});

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
  // Both start at once: the migrations and the workspace seeds must each happen exactly once.
  instances = await Promise.all([startSandboxProcess(env()), startSandboxProcess(env())]);
  // The cases move the clock past the payments' delay and expect them completed, not settled.
  await settlementOff((instances[0] as SandboxProcess).url, KEY);
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await db.end();
});

interface Answer {
  status: number;
  body: any;
}

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  auth = `Bearer ${KEY}`,
): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const seed = seedWorkspace(KEY);
const tryAccounts = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
const usdAccounts = seed.accounts.filter((a) => a.currency === "USD").map((a) => a.id) as [string, string];

function paymentBody(i: number) {
  const [from, to] = i % 3 === 0 ? usdAccounts : tryAccounts;
  return { amount: 100 + i, currency: i % 3 === 0 ? "USD" : "TRY", method: "eft", from_account: from, to_account: to };
}

/** Every page of a listing, as one client walking its cursors would see it. */
async function walk(base: string, limit: number): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let answer = await call(base, "GET", `/v1/payments?limit=${limit}`);
  const total = answer.body.pagination.total as number;
  for (let pages = 0; pages < 1_000; pages++) {
    expect(answer.status).toBe(200);
    ids.push(...answer.body.data.map((p: { id: string }) => p.id));
    const next = answer.body.pagination.next_cursor;
    if (!next) break;
    // Alternate instances: a cursor from one is good on the other.
    answer = await call(instances[pages % 2]?.url ?? base, "GET", `/v1/payments?cursor=${next}`);
  }
  return { ids, total };
}

async function allPayments(base: string) {
  const { ids } = await walk(base, 100);
  return Promise.all(ids.map(async (id) => (await call(base, "GET", `/v1/payments/${id}`)).body));
}

async function balancesAreSeedPlusCompleted(base: string) {
  const payments = await allPayments(base);
  const accounts: { id: string; balance: number }[] = (await call(base, "GET", "/v1/accounts")).body;
  for (const account of accounts) {
    const seeded = seed.accounts.find((a) => a.id === account.id)?.balanceMinor as number;
    let expected = seeded;
    for (const p of payments) {
      if (!MONEY_MOVED.has(p.status)) continue;
      if (p.from_account === account.id) expected -= p.amount;
      if (p.to_account === account.id) expected += p.amount;
    }
    expect(Math.round(account.balance * 100), account.id).toBe(expected);
  }
  return payments;
}

describe("two sandbox processes on one database", () => {
  it("keep every invariant under a concurrent workload spread across both", async () => {
    const [a, b] = instances.map((i) => i.url) as [string, string];
    const on = (i: number) => (i % 2 === 0 ? a : b);

    // Creates, batches and exports at once, on both instances.
    const creates = Array.from({ length: 120 }, (_, i) => call(on(i), "POST", "/v1/payments", paymentBody(i)));
    const batches = Array.from({ length: 6 }, (_, n) =>
      call(on(n + 1), "POST", "/v1/payments/batch", {
        payments: [...Array.from({ length: 15 }, (_, i) => paymentBody(1_000 + n * 15 + i)), { amount: -1 }],
      }),
    );
    // Each export starts once some creates are answered, so its pages are read while others insert.
    const exports = Array.from({ length: 6 }, (_, n) =>
      (creates[10 + n * 18] as Promise<Answer>).then(() => walk(on(n), 7 + n)),
    );
    const [created, batched, walks] = await Promise.all([
      Promise.all(creates),
      Promise.all(batches),
      Promise.all(exports),
    ]);
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    for (const batch of batched) expect(batch.body).toMatchObject({ created: 15, failed: 1 });
    const acknowledged = [
      ...created.map((r) => r.body.id as string),
      ...batched.flatMap((r) =>
        r.body.results.filter((x: any) => x.outcome === "created").map((x: any) => x.payment.id),
      ),
    ];
    expect(new Set(acknowledged).size).toBe(210);

    // Cancels: each of 60 payments gets one cancel on each instance at the same moment; one wins.
    const cancelled = acknowledged.slice(0, 60);
    const cancels = await Promise.all(
      cancelled.map((id) =>
        Promise.all([call(a, "DELETE", `/v1/payments/${id}`), call(b, "DELETE", `/v1/payments/${id}`)]),
      ),
    );
    for (const pair of cancels) expect(pair.map((r) => r.status).sort()).toEqual([200, 409]);

    // One referenceId, ten card payments at once, half on each instance, one token from one login.
    const login = await call(
      a,
      "POST",
      "/auth/login",
      undefined,
      `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64")}`,
    );
    const token = `Bearer ${login.body.accessToken}`;
    const card = cardPayment();
    const charges = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(on(i), "POST", "/api/v1/payments/card", card, token)),
    );
    expect(charges.map((r) => r.status)).toEqual(charges.map(() => 200));
    expect(new Set(charges.map((r) => r.body.response.id)).size).toBe(1);

    // The clock is shared: moved on one instance, payments complete when the other looks.
    const advanced = await call(b, "POST", "/_sandbox/clock/advance", { seconds: COMPLETE_AFTER_SECONDS + 1 });
    expect(advanced.status).toBe(200);
    const [fromA, fromB] = await Promise.all([allPayments(a), allPayments(b)]);

    // No lost payment: every acknowledged one is there, on both, once.
    expect(fromA.map((p) => p.id).sort()).toEqual([...acknowledged].sort());
    expect(fromB).toEqual(fromA);
    for (const p of fromA) {
      expect(p.status).toBe(cancelled.includes(p.id) ? "cancelled" : "completed");
    }

    // Every export was an exact snapshot: the first N payments in creation order, no hole, none twice,
    // exactly the total it announced.
    const creationOrder = fromA.map((p) => p.id);
    for (const w of walks) {
      expect(w.ids).toHaveLength(w.total);
      expect(w.ids).toEqual(creationOrder.slice(0, w.total));
    }

    // No double transition, and completion once per payment (the history is the record: its first
    // entry is kept on the payment's row, the changes after it in payment_history).
    const history = await db.query(
      `SELECT p.seq, array_prepend(p.created_status, array_remove(array_agg(h.status ORDER BY h.version), NULL)) AS statuses
       FROM payments p LEFT JOIN payment_history h ON h.workspace = p.workspace AND h.seq = p.seq
       WHERE p.workspace = $1 GROUP BY p.seq, p.created_status`,
      [new SandboxSecret(TEST_SECRET).storedWorkspaceId(KEY)],
    );
    expect(history.rows).toHaveLength(210);
    for (const row of history.rows) expect(row.statuses).toHaveLength(2);

    // Money conserved per currency, and every balance is its seed plus completed payments.
    await balancesAreSeedPlusCompleted(a);
    const charged = await db.query("SELECT count(*)::int AS n FROM card_payments WHERE reference_id = $1", [
      card.referenceId,
    ]);
    expect(charged.rows[0].n).toBe(1);
  });

  it("lose nothing acknowledged when one is killed with SIGKILL under load and restarted", async () => {
    const [victim, survivor] = instances as [SandboxProcess, SandboxProcess];
    const acknowledged: string[] = [];
    let killed = false;
    // Ten workers create on the victim (then, once it is gone, on the survivor) until 400 attempts.
    let attempts = 0;
    const worker = async () => {
      while (attempts < 400) {
        const i = attempts++;
        const base = killed ? survivor.url : victim.url;
        try {
          const answer = await call(base, "POST", "/v1/payments", paymentBody(i));
          if (answer.status === 201) acknowledged.push(answer.body.id);
        } catch {
          // The connection died with the process: not acknowledged, so nothing is promised about it.
        }
        if (!killed && acknowledged.length >= 100) {
          killed = true;
          victim.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    await victim.exited;
    expect(victim.child.signalCode).toBe("SIGKILL");
    expect(acknowledged.length).toBeGreaterThan(100);

    const restarted = await startSandboxProcess(env());
    instances = [restarted, survivor];
    for (const base of [restarted.url, survivor.url]) {
      const ids = new Set((await walk(base, 500)).ids);
      const missing = acknowledged.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
    }
    await call(restarted.url, "POST", "/_sandbox/clock/advance", { seconds: COMPLETE_AFTER_SECONDS + 1 });
    await balancesAreSeedPlusCompleted(restarted.url);
  });
});
