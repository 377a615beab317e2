import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRET } from "../../../../../test/support/test-stores.js";
import { seedWorkspace } from "../../../../index.js";
import { SandboxSecret } from "../../../../infrastructure/secret/sandbox-secret.js";
import { ELAPSED_PROBES } from "../../../store/postgres/postgres-read-statements.js";
import {
  type FreshPaymentsStores,
  freshPaymentsStores,
  pendingDraft,
} from "../../../test/postgres/fresh-payments-stores.js";

/**
 * The probes of time's work run on every read and every turn of the due-work loop, so each must be an
 * index lookup however many payments the workspace holds. PostgreSQL plans a named statement
 * generically after five runs; these tests ask for that plan outright, on a table whose statistics
 * say most payments are awaiting completion (after a load test), then that most are completed (once
 * they fell due): the two states in which a generic plan once chose to read the whole table.
 */
const seed = seedWorkspace("sk_elapsed_probes");
const secret = new SandboxSecret(TEST_SECRET);
const workspace = secret.storedWorkspaceId(seed.workspace);
const PAYMENTS = 20_000;
/** When the workspace's payments fall due: a year on, so none is due during the tests. */
const FAR = Date.now() + 365 * 86_400_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** Every table a plan reads from start to end. */
function tablesScannedWhole(node: PlanNode): string[] {
  const own = node["Node Type"] === "Seq Scan" ? [node["Relation Name"] ?? "?"] : [];
  return [...own, ...(node.Plans ?? []).flatMap(tablesScannedWhole)];
}

describe("the elapsed-time probes on a large workspace", () => {
  let fresh: FreshPaymentsStores;
  beforeAll(async () => {
    fresh = await freshPaymentsStores(seed, secret);
    // Asked in one turn, they go in as groups of 500 (one statement each).
    await Promise.all(
      Array.from({ length: PAYMENTS }, (_, i) =>
        fresh.stores.payments.insert(seed.workspace, pendingDraft(seed, `pay_probe${String(i).padStart(6, "0")}`, FAR)),
      ),
    );
  });
  afterAll(async () => {
    await fresh.close();
  });

  /** The generic plan of each probe, as PostgreSQL would run it from the sixth time on. */
  async function genericPlans(): Promise<Record<string, PlanNode>> {
    const client = await fresh.db.connect();
    try {
      await client.query("ANALYZE payments");
      await client.query("SET plan_cache_mode = force_generic_plan");
      const plans: Record<string, PlanNode> = {};
      for (const [name, text] of Object.entries(ELAPSED_PROBES)) {
        // $1 is the workspace; every other parameter is a time.
        const times = Math.max(...(text.match(/\$\d/g) ?? []).map((p) => Number(p.slice(1)))) - 1;
        await client.query(`PREPARE ${name}(text${", bigint".repeat(times)}) AS ${text}`);
        const values = `'${workspace}'${", 0".repeat(times)}`;
        const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) EXECUTE ${name}(${values})`,
        );
        const [explained] = rows;
        if (!explained) throw new Error(`EXPLAIN gave no plan for ${name}`);
        plans[name] = explained["QUERY PLAN"][0].Plan;
        await client.query(`DEALLOCATE ${name}`);
      }
      return plans;
    } finally {
      await client.query("RESET plan_cache_mode");
      client.release();
    }
  }

  it("shares the probe among reads that ask while it is on its way, asked as of the latest of their clocks", async () => {
    const now = Date.now();
    const asked = (at: number) => fresh.stores.payments.somethingElapsed?.(seed.workspace, at, 0);
    // The first goes at once; the next two ask while it is on its way, and share the next query.
    const first = asked(now);
    const [early, late] = [asked(now), asked(FAR + 1)];
    // The late one must hear yes. The early one hears the shared yes, and looks again as of its own
    // time before it completes anything (completeDue's own probe).
    expect(await Promise.all([first, early, late])).toEqual([false, true, true]);
    // The query after them is asked as of its own reads' clocks only.
    expect(await asked(now)).toBe(false);
  });

  it("reads no table whole while the workspace's payments await completion", async () => {
    const plans = await genericPlans();
    expect(Object.keys(plans)).toEqual(["payspec_elapsed_probe", "payspec_due_probe", "payspec_settlement_probe"]);
    for (const [name, plan] of Object.entries(plans)) {
      expect({ name, scannedWhole: tablesScannedWhole(plan).filter((t) => t === "payments") }).toEqual({
        name,
        scannedWhole: [],
      });
    }
  });

  it("reads no table whole once they are completed and await settlement", async () => {
    await fresh.db.query(
      "UPDATE payments SET status = 'completed', completed_at = created_at, countdown_from = NULL WHERE workspace = $1",
      [workspace],
    );
    const plans = await genericPlans();
    for (const [name, plan] of Object.entries(plans)) {
      expect({ name, scannedWhole: tablesScannedWhole(plan).filter((t) => t === "payments") }).toEqual({
        name,
        scannedWhole: [],
      });
    }
  });
});
