import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_SECRET } from "../../../../../test/support/test-stores.js";
import { seedWorkspace } from "../../../../index.js";
import { SandboxSecret } from "../../../../infrastructure/secret/sandbox-secret.js";
import type { NewPayment } from "../../../store/payments-store.js";
import {
  type FreshPaymentsStores,
  freshPaymentsStores,
  pendingDraft,
} from "../../../test/postgres/fresh-payments-stores.js";

/**
 * Creates to one workspace go in by groups, one statement (one transaction, one wait on the disk) per
 * group. A group's payments share the transaction id PostgreSQL stamps on a row (xmin), so the rows
 * themselves say how the creates were grouped.
 */
const seed = seedWorkspace("sk_group_commit");
const secret = new SandboxSecret(TEST_SECRET);

describe("group commit", () => {
  let fresh: FreshPaymentsStores;
  beforeEach(async () => {
    fresh = await freshPaymentsStores(seed, secret);
  });
  afterEach(async () => {
    await fresh.close();
  });

  let n = 0;
  const draft = (): NewPayment => pendingDraft(seed, `pay_groupcommit${String(++n).padStart(5, "0")}`, Date.now(), 100);

  /** The payments' seqs, one list per transaction that wrote them, in seq order. */
  async function groups(): Promise<number[][]> {
    const { rows } = await fresh.db.query<{ seqs: string[] }>(
      "SELECT array_agg(seq ORDER BY seq) AS seqs FROM payments WHERE workspace = $1 GROUP BY xmin::text ORDER BY min(seq)",
      [secret.storedWorkspaceId(seed.workspace)],
    );
    return rows.map((r) => r.seqs.map(Number));
  }

  it("inserts the creates asked for in one turn, a batch's entries, in one group", async () => {
    const stored = await Promise.all(
      Array.from({ length: 20 }, () => fresh.stores.payments.insert(seed.workspace, draft())),
    );
    expect(stored.map((p) => p.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await groups()).toEqual([stored.map((p) => p.seq)]);
  });

  it("waits for the callers it has just answered: callers that create again at once share every group", async () => {
    // Eight callers, each creating five payments one after another as soon as the last is stored.
    // Without the wait, the answered callers would miss the group already gathered and the groups
    // would take turns (1, 7, 1, 7, …); with it, each round of creates is one group of eight.
    const callers = Array.from({ length: 8 }, async () => {
      const seqs: number[] = [];
      for (let round = 0; round < 5; round++)
        seqs.push((await fresh.stores.payments.insert(seed.workspace, draft())).seq);
      return seqs;
    });
    const seqsByCaller = await Promise.all(callers);
    const grouped = await groups();
    expect(grouped).toHaveLength(5);
    for (const group of grouped) expect(group).toHaveLength(8);
    // Each caller's creates are in order, one per group.
    for (const seqs of seqsByCaller) {
      expect(seqs.map((seq) => grouped.findIndex((g) => g.includes(seq)))).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it("answers a lone caller's creates one by one, each in its own group", async () => {
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++) seqs.push((await fresh.stores.payments.insert(seed.workspace, draft())).seq);
    expect(await groups()).toEqual([[1], [2], [3]]);
  });
});
