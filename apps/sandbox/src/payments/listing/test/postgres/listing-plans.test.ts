import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../../../../../test/support/test-stores.js";
import { openPool } from "../../../../infrastructure/postgres/pool.js";
import { foldForSearch } from "../../../../infrastructure/text/search-fold.js";
import { seedWorkspace } from "../../../creation/seed.js";
import type { PaymentQuery } from "../../../store/payments-store.js";
import { PostgresPaymentsStore } from "../../../store/postgres/postgres-payments-store.js";
import { firstPaymentToCopy } from "../../../test/postgres/payment-copies.js";
import { browsePayments } from "../../payments-browse.js";

/**
 * The listings' queries, as the store sends them, planned by PostgreSQL on a workspace of 60,000
 * payments: each finds its rows and its total through an index, never by reading the workspace's
 * payments (or their histories) one by one. The plans are PostgreSQL's own (`EXPLAIN (FORMAT JSON)`
 * with the very text and values the store sent), after ANALYZE, as a long-running database has them.
 */
const PAYMENTS = 60_000;
const WORKSPACE = seedWorkspace("sk_sandbox_plans").workspace;
const STATUSES = ["pending", "completed", "failed", "cancelled", "settled"];
const METHODS = ["eft", "card", "bank_transfer", "virtual_account"];

let pool: pg.Pool;
let store: PostgresPaymentsStore;
/** Each query the store sent through the pool, with its values, and whether it was a named statement. */
const sent: { text: string; values: unknown[]; named: boolean }[] = [];

beforeAll(async () => {
  pool = await openPool(await freshDatabase(), 4, (key) => key);
  // The store's queries are recorded on their way to the real pool, which runs them.
  const recording = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver);
      return (config: string | { text: string; values?: unknown[]; name?: string }, values?: unknown[]) => {
        const text = typeof config === "string" ? config : config.text;
        sent.push({
          text,
          values: (typeof config === "string" ? values : (config.values ?? values)) ?? [],
          named: typeof config !== "string" && config.name !== undefined,
        });
        return target.query(config as string, values);
      };
    },
  });
  store = new PostgresPaymentsStore(recording);
  const seed = seedWorkspace("sk_sandbox_plans");
  await store.reset([seed]);
  const copy = await firstPaymentToCopy(pool, store, seed, FIRST_CREATED);
  await copy(
    {
      status: `(ARRAY['${STATUSES.join("','")}'])[1 + g % ${STATUSES.length}]`,
      method: `(ARRAY['${METHODS.join("','")}'])[1 + g % ${METHODS.length}]`,
      from_account: "CASE WHEN g % 2 = 0 THEN p.from_account ELSE p.to_account END",
      to_account: "CASE WHEN g % 2 = 0 THEN p.to_account ELSE p.from_account END",
      created_at: "p.created_at + g::bigint * 60000",
      reference: "'İNV-' || g",
    },
    2,
    PAYMENTS,
  );
  // One in a thousand waits for an approver (all of them pending: a multiple of 5).
  await pool.query("UPDATE payments SET countdown_from = NULL WHERE workspace = $1 AND seq % 1000 = 0", [WORKSPACE]);
  // Every payment no longer pending got there by one change, as the history records it.
  await pool.query(
    `INSERT INTO payment_history (workspace, seq, version, status, at, cause)
     SELECT workspace, seq, version, status, created_at + 1000, 'completion' FROM payments
     WHERE workspace = $1 AND status <> 'pending'`,
    [WORKSPACE],
  );
  await pool.query("UPDATE workspaces SET payment_count = $2, version = $2 WHERE workspace = $1", [
    WORKSPACE,
    PAYMENTS,
  ]);
  await pool.query("ANALYZE");
}, 120_000);
afterAll(async () => {
  await pool?.end();
});

interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly "Actual Rows"?: number;
  readonly "Actual Loops"?: number;
  readonly "Rows Removed by Filter"?: number;
  readonly "Rows Removed by Index Recheck"?: number;
  readonly Plans?: PlanNode[];
}

/** The tables a plan reads from start to end: "Seq Scan on payments". */
function fullScans(node: PlanNode): string[] {
  const own =
    node["Node Type"] === "Seq Scan" && ["payments", "payment_history"].includes(node["Relation Name"] ?? "")
      ? [`Seq Scan on ${node["Relation Name"]}`]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(fullScans)];
}

/** A first page, newest first with its total, at a snapshot. */
const firstPage = (snapshot: { seq: number; version: number }, filters: Partial<PaymentQuery>): PaymentQuery => ({
  afterSeq: 0,
  snapshotSeq: snapshot.seq,
  asOfVersion: snapshot.version,
  limit: 20,
  descending: true,
  countTotal: true,
  ...filters,
});

/** The rows a plan took from the payments table: those it kept and those its filters threw away. */
function paymentRowsRead(node: PlanNode): number {
  const own =
    node["Relation Name"] === "payments"
      ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1) +
        (node["Rows Removed by Index Recheck"] ?? 0)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + paymentRowsRead(child), 0);
}

/**
 * The plan PostgreSQL may settle on for a named statement from its sixth run on: generic, made
 * without the values (asked for outright here), then run with them.
 */
async function genericPlan(text: string, values: readonly unknown[]): Promise<PlanNode> {
  const client = await pool.connect();
  try {
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE generic_listing AS ${text}`);
    const literals = values.map((v) => (v === null ? "NULL" : client.escapeLiteral(String(v))));
    const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE generic_listing(${literals.join(", ")})`,
    );
    return rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode;
  } finally {
    await client.query("DEALLOCATE generic_listing");
    await client.query("RESET plan_cache_mode");
    client.release();
  }
}

/**
 * The store's listing with these filters, and how PostgreSQL plans each query it sent for it: with
 * its values (a custom plan), and for a named statement also without them (the generic plan, which
 * must read no more than the custom plan, give or take a page).
 */
async function listed(filters: Partial<PaymentQuery>) {
  const snapshot = await store.snapshot(WORKSPACE);
  sent.length = 0;
  const answer = await store.list(WORKSPACE, firstPage(snapshot, filters));
  const scans: string[] = [];
  for (const query of sent) {
    const { rows } = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`,
      query.values,
    );
    const custom = rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode;
    scans.push(...fullScans(custom));
    if (query.named) {
      const generic = await genericPlan(query.text, query.values);
      scans.push(...fullScans(generic).map((scan) => `${scan} (generic plan)`));
      const [read, readCustom] = [paymentRowsRead(generic), paymentRowsRead(custom)];
      if (read > 2 * readCustom + 50) scans.push(`generic plan read ${read} payments, the custom plan ${readCustom}`);
    }
  }
  return { ...answer, queries: sent.length, scans };
}

const expected = (keep: (g: number) => boolean) => {
  let n = 0;
  for (let g = 1; g <= PAYMENTS; g++) if (keep(g)) n++;
  return n;
};
const FIRST_CREATED = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const DAY_START = FIRST_CREATED + 20 * DAY_MS;
const onTheDay = (g: number) => {
  const at = FIRST_CREATED + (g === 1 ? 0 : g * 60_000);
  return at >= DAY_START && at < DAY_START + DAY_MS;
};
const statusOf = (g: number) => (g === 1 ? "pending" : STATUSES[g % STATUSES.length]);
const methodOf = (g: number) => (g === 1 ? "eft" : METHODS[g % METHODS.length]);

it("finds the first page and its total through indexes, with no filter, with status, method, account, a day, a search, and the approvals queue", async () => {
  const account = seedWorkspace("sk_sandbox_plans").accounts[0]?.id as string;
  const cases: [Partial<PaymentQuery>, number][] = [
    [{}, PAYMENTS],
    [{ status: "failed" }, expected((g) => statusOf(g) === "failed")],
    [{ method: "card" }, expected((g) => methodOf(g) === "card")],
    [{ account }, PAYMENTS],
    [
      { status: "settled", method: "bank_transfer", account },
      expected((g) => statusOf(g) === "settled" && methodOf(g) === "bank_transfer"),
    ],
    // The approvals queue.
    [{ awaitingApproval: true }, PAYMENTS / 1000],
    // One day of the 41 the workspace spans (a payment a minute), alone and with a status.
    [{ createdFrom: DAY_START, createdTo: DAY_START + DAY_MS - 1 }, expected(onTheDay)],
    [
      { createdFrom: DAY_START, createdTo: DAY_START + DAY_MS - 1, status: "completed" },
      expected((g) => onTheDay(g) && statusOf(g) === "completed"),
    ],
    // The dashboard's search: a reference typed in part (İNV-4321 and İNV-43210 to İNV-43219), in
    // lower case with a dotless i, alone and beside a status.
    [{ search: foldForSearch("ınv-4321") }, expected((g) => g > 1 && String(g).startsWith("4321"))],
    [
      { search: foldForSearch("ınv-4321"), status: "settled" },
      expected((g) => g > 1 && String(g).startsWith("4321") && statusOf(g) === "settled"),
    ],
  ];
  for (const [filters, total] of cases) {
    const answer = await listed(filters);
    expect(answer.total, JSON.stringify(filters)).toBe(total);
    expect(answer.items).toHaveLength(Math.min(20, total));
    expect(answer.scans, `${JSON.stringify(filters)}: ${answer.scans.join(", ")}`).toEqual([]);
  }
});

it("counts a search's first page and its total with one scan of its matches, alone, beside a status and within a day", async () => {
  const cases: [Partial<PaymentQuery>, number][] = [
    [{ search: foldForSearch("ınv-4321") }, expected((g) => g > 1 && String(g).startsWith("4321"))],
    [
      { search: foldForSearch("ınv-4321"), status: "failed" },
      expected((g) => g > 1 && String(g).startsWith("4321") && statusOf(g) === "failed"),
    ],
    // İNV-29000 to İNV-29999 fall on the day; İNV-29, İNV-290… and İNV-2900… do not.
    [
      { search: foldForSearch("ınv-29"), createdFrom: DAY_START, createdTo: DAY_START + DAY_MS - 1 },
      expected((g) => g > 1 && onTheDay(g) && String(g).startsWith("29")),
    ],
    // Nothing matches: no row to carry the total, which is 0.
    [{ search: foldForSearch("no such reference") }, 0],
  ];
  for (const [filters, total] of cases) {
    const answer = await listed(filters);
    expect(answer.total, JSON.stringify(filters)).toBe(total);
    expect(answer.items.map((p) => p.seq)).toEqual([...answer.items.map((p) => p.seq)].sort((a, b) => b - a));
    expect(answer.items).toHaveLength(Math.min(20, total));
    // The page and the total from one statement (a dated one first finds its seqs by two probes).
    expect(answer.queries, JSON.stringify(filters)).toBe(filters.createdFrom === undefined ? 1 : 2);
    expect(answer.scans).toEqual([]);
  }
});

it("shows the dashboard's newest page of a search with its total from one scan of its matches", async () => {
  sent.length = 0;
  const page = await browsePayments(store, WORKSPACE, { search: "İNV-4321" }, {}, 20);
  expect(page.total).toBe(expected((g) => g > 1 && String(g).startsWith("4321")));
  expect(page.payments).toHaveLength(11);
  expect(page.hasOlder).toBe(false);
  // The snapshot's row, then the page with its total: no count reading every match again.
  expect(sent.map((query) => (query.text.includes("payment_count, version") ? "snapshot" : "page"))).toEqual([
    "snapshot",
    "page",
  ]);
});

it("shows the dashboard's older and newer pages of a search with the whole total, each from one scan of its matches", async () => {
  const total = expected((g) => g > 1 && String(g).startsWith("4321"));
  const kinds = () => sent.map((query) => (query.text.includes("payment_count, version") ? "snapshot" : "read"));
  const newest = await browsePayments(store, WORKSPACE, { search: "İNV-4321" }, {}, 4);
  sent.length = 0;
  const older = await browsePayments(store, WORKSPACE, { search: "İNV-4321" }, { olderThan: newest.last }, 4);
  expect(older.total).toBe(total);
  expect(older.payments).toHaveLength(4);
  expect(older.first).toBeLessThan(newest.last as number);
  // The snapshot's row, the page with its total, then a probe of one row for a newer page.
  expect(kinds()).toEqual(["snapshot", "read", "read"]);
  expect(sent[1]?.text).toContain("listing_total");
  sent.length = 0;
  // Back to the newest page, as its "Previous page" link leads.
  const newer = await browsePayments(store, WORKSPACE, { search: "İNV-4321" }, { newerThan: older.first }, 4);
  expect(newer.total).toBe(total);
  expect(newer.payments.map((p) => p.id)).toEqual(newest.payments.map((p) => p.id));
  expect(kinds()).toEqual(["snapshot", "read", "read"]);
  // Past the oldest match the page is empty, and its total still the whole listing's.
  const oldest = await browsePayments(store, WORKSPACE, { search: "İNV-4321" }, { olderThan: 1 }, 4);
  expect(oldest.payments).toEqual([]);
  expect(oldest.total).toBe(total);
});

it("finds a deep page by its cursor through the index", async () => {
  const answer = await listed({ afterSeq: 30_000, descending: false, countTotal: false });
  expect(answer.items.map((p) => p.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 30_001 + i));
  expect(answer.scans).toEqual([]);
});

it("counts exactly at a snapshot while payments change after it: the kept counts and the changed rows", async () => {
  const before = await listed({ status: "pending", countTotal: true });
  const snapshot = await store.snapshot(WORKSPACE);
  // Changes after the snapshot: a pending payment cancelled, and a new pending one.
  const pending = before.items[0];
  await store.transition(WORKSPACE, pending?.id as string, ["pending"], "cancelled", Date.now(), "api");
  const [from, to] = seedWorkspace("sk_sandbox_plans").accounts.filter((a) => a.currency === "TRY");
  await store.insert(WORKSPACE, {
    id: "pay_madeafterthesnap",
    amount: 100,
    currency: "TRY",
    method: "eft",
    from_account: from?.id as string,
    to_account: to?.id as string,
    createdAt: Date.now(),
    countdownFrom: Date.now(),
    status: "pending",
    cause: "api",
  });
  const at = firstPage(snapshot, { status: "pending" });
  expect((await store.list(WORKSPACE, at)).total).toBe(before.total);
  expect((await store.list(WORKSPACE, { ...at, status: "cancelled" })).total).toBe(
    expected((g) => statusOf(g) === "cancelled"),
  );
  const eft = expected((g) => methodOf(g) === "eft");
  expect((await store.list(WORKSPACE, { ...at, status: undefined, method: "eft" })).total).toBe(eft);
  // A search for the cancelled payment's reference, beside a status: as it was at the snapshot.
  const itsReference = { search: foldForSearch(pending?.reference as string) };
  expect((await store.list(WORKSPACE, { ...at, ...itsReference })).items.map((p) => p.status)).toEqual(["pending"]);
  expect((await store.list(WORKSPACE, { ...at, ...itsReference, status: "cancelled" })).total).toBe(0);
  const current = firstPage(await store.snapshot(WORKSPACE), { status: "pending" });
  expect((await store.list(WORKSPACE, { ...current, ...itsReference, status: "cancelled" })).total).toBe(1);
  expect((await store.list(WORKSPACE, { ...current, ...itsReference, status: "pending" })).total).toBe(0);
  // One pending fewer, one more: the same count, from other payments.
  expect((await store.list(WORKSPACE, current)).total).toBe(before.total);
  expect((await store.list(WORKSPACE, { ...current, status: undefined, method: "eft" })).total).toBe(eft + 1);
  expect((await store.list(WORKSPACE, { ...current, status: "cancelled" })).total).toBe(
    expected((g) => statusOf(g) === "cancelled") + 1,
  );
});
