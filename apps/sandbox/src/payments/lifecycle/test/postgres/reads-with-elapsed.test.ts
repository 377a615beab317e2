import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY } from "../../../../../test/support/harness.js";
import { sandboxCall } from "../../../../../test/support/sandbox-call.js";
import { TEST_SECRET, twoInstancesOnOneDatabase } from "../../../../../test/support/test-stores.js";
import { seedWorkspace } from "../../../../index.js";
import { SandboxSecret } from "../../../../infrastructure/secret/sandbox-secret.js";
import { PAYMENT_READS } from "../../../store/postgres/postgres-read-statements.js";
import {
  type FreshPaymentsStores,
  freshPaymentsStores,
  pendingDraft,
} from "../../../test/postgres/fresh-payments-stores.js";

/**
 * GET /v1/payments/{id} and GET /v1/accounts on PostgreSQL ask whether time has work for the workspace
 * in the statement that reads (readAfterElapsedTime): these tests hold them to what the separate
 * questions answered, across instances, and hold the reads by id to the payments asked for.
 */
const seed = seedWorkspace(KEY);
const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
const MONEY_MOVED = ["completed", "settled"];

describe("reads that ask about time in their own statement, on two instances", () => {
  const instances = twoInstancesOnOneDatabase({ completeAfterSeconds: 60 });
  // 7.00 TRY: amounts are sent in minor units, balances read in major ones.
  const body = { amount: 700, currency: "TRY", method: "eft", from_account: from, to_account: to };
  const balance = async (base: string, account: string) => {
    const answer = await sandboxCall(base, "GET", "/v1/accounts");
    expect(answer.status).toBe(200);
    return answer.body.find((a: { id: string }) => a.id === account).balance;
  };

  it("see a payment fall due on a clock another instance moved, on their first read after it", async () => {
    const [a, b] = instances();
    const made = await sandboxCall(a.url, "POST", "/v1/payments", body);
    expect(made.status).toBe(201);
    // B reads first, so that it keeps a reading of the clock from before the move.
    expect((await sandboxCall(b.url, "GET", `/v1/payments/${made.body.id}`)).body.status).toBe("pending");
    const before = await balance(b.url, from);
    expect((await sandboxCall(a.url, "POST", "/_sandbox/clock/advance", { seconds: 120 })).status).toBe(200);

    const read = await sandboxCall(b.url, "GET", `/v1/payments/${made.body.id}`);
    expect(read.status).toBe(200);
    expect(MONEY_MOVED).toContain(read.body.status);
    expect(await balance(b.url, from)).toBe(before - body.amount / 100);
  });

  it("see a payment fall due on their own clock's move, accounts first", async () => {
    const [, b] = instances();
    const made = await sandboxCall(b.url, "POST", "/v1/payments", body);
    expect(made.status).toBe(201);
    const before = await balance(b.url, from);
    // B's own move: its reading of the clock is the moved one, so only the question of what is due can tell.
    expect((await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: 120 })).status).toBe(200);
    expect(await balance(b.url, from)).toBe(before - body.amount / 100);
    expect(MONEY_MOVED).toContain((await sandboxCall(b.url, "GET", `/v1/payments/${made.body.id}`)).body.status);
  });

  it("answer 404 in the API's shape for a payment of no workspace, and the same read in a batch of found ones", async () => {
    const [a] = instances();
    const made = await sandboxCall(a.url, "POST", "/v1/payments", body);
    const [found, missing] = await Promise.all([
      sandboxCall(a.url, "GET", `/v1/payments/${made.body.id}`),
      sandboxCall(a.url, "GET", "/v1/payments/pay_doesnotexist00"),
    ]);
    expect(found.body.id).toBe(made.body.id);
    expect(missing.status).toBe(404);
    expect(missing.body.param).toBe("id");
  });
});

interface PlanNode {
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** The payments rows a plan's nodes read, matched or thrown away, over all their loops. */
function paymentsRowsRead(node: PlanNode): number {
  const onPayments = node["Relation Name"] === "payments" || node["Index Name"]?.startsWith("payments") === true;
  const rows =
    (node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
  const own = onPayments ? rows * (node["Actual Loops"] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + paymentsRowsRead(child), 0);
}

describe("the reads of payments by id on a workspace whose statistics lag its growth", () => {
  const secret = new SandboxSecret(TEST_SECRET);
  const other = seedWorkspace("sk_reads_by_id");
  const workspace = secret.storedWorkspaceId(other.workspace);
  const PAYMENTS = 1_000;
  const ids = ["pay_byid00000007", "pay_byid00000345", "pay_byid00000999"];
  let fresh: FreshPaymentsStores;
  beforeAll(async () => {
    fresh = await freshPaymentsStores(other, secret);
    // No statistics at all, as on a new sandbox that a load test fills before autovacuum first looks:
    // PostgreSQL then takes a workspace for a few rows.
    await fresh.db.query("ALTER TABLE payments SET (autovacuum_enabled = false)");
    const far = Date.now() + 365 * 86_400_000;
    await Promise.all(
      Array.from({ length: PAYMENTS }, (_, i) =>
        fresh.stores.payments.insert(
          other.workspace,
          pendingDraft(other, `pay_byid${String(i).padStart(8, "0")}`, far),
        ),
      ),
    );
  });
  afterAll(async () => {
    await fresh?.close();
  });

  for (const mode of ["force_custom_plan", "force_generic_plan"]) {
    it(`read only the payments asked for (${mode})`, async () => {
      const client = await fresh.db.connect();
      try {
        await client.query(`SET plan_cache_mode = ${mode}`);
        for (const [name, text] of Object.entries(PAYMENT_READS)) {
          const withElapsed = text.includes("$5");
          await client.query(`PREPARE ${name}(text, text[]${withElapsed ? ", text, bigint, bigint" : ""}) AS ${text}`);
          const values = `'${workspace}', ARRAY['${ids.join("','")}']${withElapsed ? `, 'workspace:${workspace}', 0, 0` : ""}`;
          const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
            `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${values})`,
          );
          await client.query(`DEALLOCATE ${name}`);
          const plan = rows[0]?.["QUERY PLAN"][0].Plan;
          if (!plan) throw new Error(`EXPLAIN gave no plan for ${name}`);
          // Each id's row, found once by its index entry; the probes of time's work find none here.
          expect({ name, read: paymentsRowsRead(plan) }).toEqual({ name, read: ids.length });
        }
      } finally {
        await client.query("RESET plan_cache_mode");
        client.release();
      }
    });
  }
});
