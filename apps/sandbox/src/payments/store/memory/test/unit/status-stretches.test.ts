import type { PaymentStatus } from "@payspec/payments-zod";
import { expect, it } from "vitest";
import { numberedId, numberedPayments } from "../../../../test/support/numbered-payments.js";
import type { PaymentQuery } from "../../../payments-store.js";

/**
 * A status filter in memory skips the stretches of 1,024 payments that hold none of that status and
 * have not changed since the listing's snapshot. Across many stretches, with the rare status in a
 * few of them and changes on both sides of the snapshot, every page (either direction) is what
 * reading every payment as it was at the snapshot gives.
 */
it("pages through a rare status across stretches exactly as a full read at the snapshot would", async () => {
  const { store, workspace, accounts } = await numberedPayments("sk_sandbox_stretches", 5_000, () => ({
    countdownFrom: 1_764_000_000_000,
  }));
  const [a, b] = accounts;
  const ids = Array.from({ length: 5_000 }, (_, i) => numberedId(i));
  const force = (i: number, to: PaymentStatus) =>
    store.transition(workspace, ids[i] as string, "any", to, Date.now(), "control");
  // Failed in a few stretches only: the first, two in the middle, the very last payment.
  for (const i of [3, 2_050, 2_051, 3_100, 4_999]) await force(i, "failed");
  const snapshot = await store.snapshot(workspace);
  // After the snapshot: the only failed payment of its stretch recovers, one elsewhere fails, and a payment is made.
  await force(3_100, "completed");
  await force(1_500, "failed");
  await store.insert(workspace, {
    id: "pay_after_snapshot",
    amount: 1,
    currency: "TRY",
    method: "eft",
    from_account: a,
    to_account: b,
    createdAt: 1_764_000_010_000,
    status: "pending",
    cause: "api",
  });
  await store.transition(workspace, "pay_after_snapshot", "any", "failed", Date.now(), "control");
  const atSnapshot = [3, 2_050, 2_051, 3_100, 4_999].map((i) => ids[i]);

  for (const descending of [false, true]) {
    const seen: string[] = [];
    let afterSeq = 0;
    let beforeSeq = snapshot.seq + 1;
    for (let page = 0; page < 10; page++) {
      const query: PaymentQuery = {
        afterSeq: descending ? 0 : afterSeq,
        snapshotSeq: descending ? beforeSeq - 1 : snapshot.seq,
        asOfVersion: snapshot.version,
        limit: 2,
        countTotal: false,
        status: "failed",
        ...(descending ? { descending: true } : {}),
      };
      const { items } = await store.list(workspace, query);
      if (items.length === 0) break;
      for (const p of items) expect(p.status, p.id).toBe("failed");
      seen.push(...items.map((p) => p.id));
      afterSeq = items.at(-1)?.seq ?? afterSeq;
      beforeSeq = items.at(-1)?.seq ?? beforeSeq;
    }
    expect(seen, descending ? "newest first" : "oldest first").toEqual(
      descending ? [...atSnapshot].reverse() : atSnapshot,
    );
  }
  // And a status nobody has is answered without finding anything.
  const none = await store.list(workspace, {
    afterSeq: 0,
    snapshotSeq: snapshot.seq,
    asOfVersion: snapshot.version,
    limit: 20,
    status: "reconciled",
    countTotal: true,
  });
  expect(none).toEqual({ items: [], total: 0 });
});
