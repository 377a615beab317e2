import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../../../../test/support/test-stores.js";
import { openPool } from "../../../../../infrastructure/postgres/pool.js";
import { seedWorkspace } from "../../../../creation/seed.js";
import { firstPaymentToCopy } from "../../../../test/postgres/payment-copies.js";
import { CHUNK_STATEMENTS, changeChunk } from "../../postgres-chunk-statements.js";
import { PostgresPaymentsStore } from "../../postgres-payments-store.js";

/**
 * Completion, settlement and reconciliation change their payments a chunk at a time, under the
 * workspace's lock, while its creates wait. Each chunk must cost about its own size, however many
 * payments the workspace holds and however stale the table's statistics are: here the table was last
 * analysed when the workspace held 20 payments (and another 5,000), and it holds 30,000 now, the state
 * of a sandbox filling up between two runs of autovacuum. The statements are run as the store sends
 * them, explained with ANALYZE, and rolled back.
 */
const PAYMENTS = 30_000;
const CHUNK = 1_000;
const seed = seedWorkspace("sk_sandbox_chunks");
const WORKSPACE = seed.workspace;
const OTHER = seedWorkspace("sk_sandbox_chunks_other").workspace;
const CREATED = Date.UTC(2026, 0, 5, 9);

let pool: pg.Pool;

interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly "Actual Rows": number;
  readonly "Actual Loops": number;
  readonly "Rows Removed by Filter"?: number;
  readonly "Rows Removed by Index Recheck"?: number;
  readonly Plans?: PlanNode[];
}

interface Explained {
  readonly Plan: PlanNode;
  readonly Triggers: { "Trigger Name": string; Calls: number }[];
}

/** How many rows of `payments` a plan read, the ones it then dropped included. */
function paymentRowsRead(node: PlanNode): number {
  const own =
    node["Relation Name"] === "payments" && node["Node Type"] !== "ModifyTable"
      ? node["Actual Rows"] * node["Actual Loops"] +
        (node["Rows Removed by Filter"] ?? 0) +
        (node["Rows Removed by Index Recheck"] ?? 0)
      : 0;
  return own + (node.Plans ?? []).map(paymentRowsRead).reduce((a, b) => a + b, 0);
}

/** The statement run as the store runs it (changeChunk), explained with ANALYZE, then undone. */
async function explained(statement: keyof typeof CHUNK_STATEMENTS, values: unknown[]): Promise<Explained> {
  const client = await pool.connect();
  let plan: Explained | undefined;
  // The store's client, but for the statement itself, which runs under EXPLAIN (ANALYZE): the same work.
  const explaining = {
    async query(text: string, given?: unknown[]) {
      if (text !== CHUNK_STATEMENTS[statement]) return client.query(text, given);
      const answer = await client.query<{ "QUERY PLAN": Explained[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, given);
      plan = answer.rows[0]?.["QUERY PLAN"][0];
      return answer;
    },
  } as unknown as pg.ClientBase;
  try {
    await client.query("BEGIN");
    await changeChunk(explaining, statement, values);
    if (!plan) throw new Error(`changeChunk did not run the ${statement} statement`);
    return plan;
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** The seqs of the workspace's first CHUNK payments in this status. */
async function chunkOf(status: string): Promise<number[]> {
  const { rows } = await pool.query<{ seq: string }>(
    "SELECT seq FROM payments WHERE workspace = $1 AND status = $2 ORDER BY seq LIMIT $3",
    [WORKSPACE, status, CHUNK],
  );
  return rows.map((r) => Number(r.seq));
}

beforeAll(async () => {
  pool = await openPool(await freshDatabase(), 2, (key) => key);
  const store = new PostgresPaymentsStore(pool);
  await store.reset([seed, seedWorkspace("sk_sandbox_chunks_other")]);
  const copy = await firstPaymentToCopy(pool, store, seed, CREATED);
  /** Copies of the first payment, numbered `first` to `last`, in `workspace`, in this status. */
  const copies = (workspace: string, first: number, last: number, status: string) =>
    copy(
      {
        workspace: `'${workspace}'`,
        status: `'${status}'`,
        completed_at: status === "pending" ? "NULL" : "p.created_at + 1000",
        settled_at: status === "settled" ? "p.created_at + 86400000" : "NULL",
      },
      first,
      last,
    );
  await copies(WORKSPACE, 2, 20, "pending");
  await copies(OTHER, 1, 5_000, "pending");
  // The statistics of that moment are the ones the planner keeps: no autovacuum analyses it again.
  await pool.query("ANALYZE payments");
  await pool.query("ALTER TABLE payments SET (autovacuum_enabled = false)");
  await copies(WORKSPACE, 21, PAYMENTS / 3, "pending");
  await copies(WORKSPACE, PAYMENTS / 3 + 1, (2 * PAYMENTS) / 3, "completed");
  await copies(WORKSPACE, (2 * PAYMENTS) / 3 + 1, PAYMENTS, "settled");
  await pool.query("UPDATE workspaces SET payment_count = $2, version = $2 WHERE workspace = $1", [
    WORKSPACE,
    PAYMENTS,
  ]);
}, 120_000);
afterAll(async () => {
  await pool?.end();
});

describe(`a chunk of ${CHUNK} payments in a workspace of ${PAYMENTS.toLocaleString("en-US")}, on stale statistics`, () => {
  const cases = {
    completion: async () => {
      const seqs = await chunkOf("pending");
      return [
        WORKSPACE,
        seqs.length,
        seqs,
        seqs.map(() => "completed"),
        seqs.map(() => CREATED + 5_000),
        seqs.map(() => CREATED + 5_000),
        seqs.map(() => null),
      ];
    },
    // The cut-off is after every completion: the statement settles its own chunk of 5,000.
    settlement: async () => [WORKSPACE, CREATED + 30 * 86_400_000],
    reconciliation: async () => {
      const seqs = await chunkOf("settled");
      return [WORKSPACE, seqs, seqs.length, CREATED + 2 * 86_400_000];
    },
  } satisfies Record<keyof typeof CHUNK_STATEMENTS, () => Promise<unknown[]>>;

  for (const [name, values] of Object.entries(cases)) {
    it(`${name} reads about as many payments as it changes, and checks none of them one by one`, async () => {
      const plan = await explained(name as keyof typeof CHUNK_STATEMENTS, await values());
      const changed = name === "settlement" ? 5_000 : CHUNK;
      // Each changed payment is read twice: where the chunk is chosen or its history entry copies it, and
      // to be changed; settlement's row_number() reads one row past its chunk, to see it is no peer.
      expect(paymentRowsRead(plan.Plan)).toBeLessThanOrEqual(2 * changed + 1);
      // Statement-level triggers (the kept counts) fire once; a per-row check would fire per entry.
      expect(plan.Triggers.filter((t) => t.Calls > 1)).toEqual([]);
    });
  }
});

it("fails with the statement's own error, not with the aborted transaction's", async () => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // A seq that is no number: PostgreSQL refuses the statement and aborts the transaction.
    await expect(changeChunk(client, "reconciliation", [WORKSPACE, ["not-a-seq"], 1, CREATED])).rejects.toThrow(
      /invalid input syntax for type bigint/,
    );
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
});
