import type { CardPayment } from "@payspec/card-gateway-zod";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryStores, postgresStores } from "../src/app/open-stores.js";
import type { SandboxStores } from "../src/app/sandbox-stores.js";
import type { StoredCardPayment } from "../src/gateway/gateway-store.js";
import { seedWorkspace } from "../src/index.js";
import { SandboxSecret } from "../src/infrastructure/secret/sandbox-secret.js";
import type { NewPayment, StoredPayment } from "../src/payments/store/payments-store.js";
import { freshDatabase, onPostgres, TEST_SECRET } from "./support/test-stores.js";

/**
 * The store contract: what every PaymentsStore, GatewayStore and ClockStore promises, run against the
 * in-memory stores (project "memory") and PostgreSQL (project "postgres"). The sandbox relies on
 * nothing else, so a store that passes this behaves the same behind the HTTP API.
 */
let stores: SandboxStores;
const TEST_SANDBOX_SECRET = new SandboxSecret(TEST_SECRET);
const A = seedWorkspace("sk_contract_a");
const B = seedWorkspace("sk_contract_b");
const [tryFrom, tryTo] = A.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
const balance = async (workspace: string, id: string) => (await stores.payments.account(workspace, id))?.balanceMinor;

beforeEach(async () => {
  stores = onPostgres()
    ? await postgresStores(await freshDatabase(), {
        storedWorkspaceId: (key) => TEST_SANDBOX_SECRET.storedWorkspaceId(key),
      })
    : memoryStores();
  await stores.payments.reset([A, B]);
  await stores.gateway.reset();
  await stores.clocks.reset();
});
afterEach(() => stores.close());

let counter = 0;
function draft(
  amount: number,
  createdAt: number,
  overrides: { from?: string; to?: string; method?: NewPayment["method"] } = {},
): NewPayment {
  counter++;
  return {
    id: `pay_contract${String(counter).padStart(8, "0")}`,
    amount,
    currency: "TRY",
    method: overrides.method ?? "eft",
    from_account: overrides.from ?? tryFrom,
    to_account: overrides.to ?? tryTo,
    createdAt,
    status: "pending",
    countdownFrom: createdAt,
    cause: "api",
  };
}

/** A dashboard submit: awaiting an approver (workflow on), or straight to processing (off). */
function dashboardDraft(amount: number, createdAt: number, workflow: boolean): NewPayment {
  const { countdownFrom: _, ...api } = draft(amount, createdAt);
  return workflow
    ? { ...api, status: "pending", cause: "dashboard" }
    : { ...api, status: "processing", countdownFrom: createdAt, cause: "dashboard" };
}

describe("workspaces", () => {
  it("ensureWorkspaces seeds only the missing ones and keeps what the others hold", async () => {
    await stores.payments.insert(A.workspace, draft(100, 1_000));
    const C = seedWorkspace("sk_contract_c");
    expect(await stores.payments.ensureWorkspaces([A, C])).toEqual([C.workspace]);
    expect(await stores.payments.ensureWorkspaces([A, C])).toEqual([]);
    expect((await stores.payments.snapshot(A.workspace)).seq).toBe(1);
    expect((await stores.payments.accounts(C.workspace)).map((a) => a.id)).toEqual(C.accounts.map((a) => a.id));
  });

  it("resetWorkspace puts one workspace back to its seed and leaves the others alone", async () => {
    const inA = await stores.payments.insert(A.workspace, draft(100, 1_000));
    const inB = await stores.payments.insert(
      B.workspace,
      draft(100, 1_000, { from: B.accounts[0]?.id, to: B.accounts[1]?.id }),
    );
    await stores.payments.transition(A.workspace, inA.id, ["pending"], "completed", 2_000, "control");
    await stores.payments.resetWorkspace(A);
    expect(await stores.payments.payment(A.workspace, inA.id)).toBeUndefined();
    expect(await stores.payments.snapshot(A.workspace)).toEqual({ seq: 0, version: 0 });
    expect(await balance(A.workspace, tryFrom)).toBe(A.accounts[0]?.balanceMinor);
    expect((await stores.payments.payment(B.workspace, inB.id))?.status).toBe("pending");
  });
});

describe("payments", () => {
  it("insert numbers payments in creation order, pending, with their first history entry", async () => {
    const first = await stores.payments.insert(A.workspace, {
      ...draft(100, 1_000),
      description: "first",
      reference: "R-1",
    });
    const second = await stores.payments.insert(A.workspace, draft(200, 1_001));
    expect([first.seq, second.seq]).toEqual([1, 2]);
    const read = await stores.payments.payment(A.workspace, first.id);
    expect(read).toEqual(first);
    expect(read).toMatchObject({ status: "pending", description: "first", reference: "R-1", amount: 100 });
    expect(read?.history).toEqual([{ status: "pending", at: 1_000, cause: "api", version: 1 }]);
    expect(await stores.payments.payment(B.workspace, first.id)).toBeUndefined();
  });

  it("50 parallel inserts get 50 distinct seqs, 1 to 50", async () => {
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) => stores.payments.insert(A.workspace, draft(1, i))),
    );
    expect(made.map((p) => p.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await stores.payments.snapshot(A.workspace)).toEqual({ seq: 50, version: 50 });
  });

  it("transition is compare-and-set, moves money exactly once, and records time and cause", async () => {
    const p = await stores.payments.insert(A.workspace, draft(10_000, 1_000));
    const before = [await balance(A.workspace, tryFrom), await balance(A.workspace, tryTo)] as [number, number];
    const refused = await stores.payments.transition(A.workspace, p.id, ["approved"], "cancelled", 2_000, "api");
    expect(refused).toMatchObject({ ok: false, reason: "status", payment: { status: "pending" } });
    expect(await stores.payments.transition(A.workspace, "pay_nope", "any", "completed", 2_000, "api")).toEqual({
      ok: false,
      reason: "not_found",
      payment: undefined,
    });
    const done = await stores.payments.transition(A.workspace, p.id, ["pending"], "completed", 3_000, "control");
    expect(done).toMatchObject({ ok: true, payment: { status: "completed", completedAt: 3_000 } });
    const settled = await stores.payments.transition(A.workspace, p.id, "any", "settled", 4_000, "control");
    expect(settled).toMatchObject({ ok: true, payment: { status: "settled", completedAt: 3_000, settledAt: 4_000 } });
    expect(await balance(A.workspace, tryFrom)).toBe(before[0] - 10_000);
    expect(await balance(A.workspace, tryTo)).toBe(before[1] + 10_000);
    // Back to a status without movement: the money goes back, and the completion times go.
    const undone = await stores.payments.transition(A.workspace, p.id, "any", "pending", 5_000, "control");
    expect(undone.ok && undone.payment).toMatchObject({ status: "pending" });
    expect(undone.payment?.completedAt).toBeUndefined();
    expect(await balance(A.workspace, tryFrom)).toBe(before[0]);
    const history = (await stores.payments.payment(A.workspace, p.id))?.history ?? [];
    expect(history.map((h) => [h.status, h.at, h.cause])).toEqual([
      ["pending", 1_000, "api"],
      ["completed", 3_000, "control"],
      ["settled", 4_000, "control"],
      ["pending", 5_000, "control"],
    ]);
  });

  it("refuses a movement the debit account cannot cover, changing nothing", async () => {
    const tooMuch = A.accounts.find((a) => a.id === tryFrom)?.balanceMinor as number;
    const p = await stores.payments.insert(A.workspace, draft(tooMuch + 1, 1_000));
    const version = (await stores.payments.snapshot(A.workspace)).version;
    const result = await stores.payments.transition(A.workspace, p.id, "any", "completed", 2_000, "control");
    expect(result).toMatchObject({ ok: false, reason: "funds", payment: { status: "pending" } });
    expect((await stores.payments.snapshot(A.workspace)).version).toBe(version);
    expect(await balance(A.workspace, tryFrom)).toBe(tooMuch);
  });

  it("two racing transitions from pending: exactly one wins, one history entry", async () => {
    const p = await stores.payments.insert(A.workspace, draft(100, 1_000));
    const results = await Promise.all([
      stores.payments.transition(A.workspace, p.id, ["pending"], "cancelled", 2_000, "api"),
      stores.payments.transition(A.workspace, p.id, ["pending"], "completed", 2_000, "control"),
      stores.payments.transition(A.workspace, p.id, ["pending"], "cancelled", 2_000, "api"),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await stores.payments.payment(A.workspace, p.id))?.history).toHaveLength(2);
  });
});

describe("completion", () => {
  it("completes due payments oldest first, fails what the debit account cannot cover, and only once", async () => {
    const funds = A.accounts.find((a) => a.id === tryFrom)?.balanceMinor as number;
    const older = await stores.payments.insert(A.workspace, draft(funds - 10, 1_000));
    const newer = await stores.payments.insert(A.workspace, draft(20, 1_001));
    const notDue = await stores.payments.insert(A.workspace, draft(5, 9_000));
    // Five callers at once (five requests, maybe on five instances): each payment completes once.
    await Promise.all(Array.from({ length: 5 }, () => stores.payments.completeDue(A.workspace, 6_001, 5_000)));
    const statuses = await Promise.all([older, newer, notDue].map((p) => stores.payments.payment(A.workspace, p.id)));
    expect(statuses.map((p) => p?.status)).toEqual(["completed", "failed", "pending"]);
    expect(statuses[0]?.history.at(-1)).toMatchObject({ status: "completed", at: 6_000, cause: "completion" });
    expect(statuses[1]?.history).toHaveLength(2);
    expect(await balance(A.workspace, tryFrom)).toBe(10);
  });

  it("a payment forced back to pending is due again, its countdown started at the forced move, never back-dated", async () => {
    const p = await stores.payments.insert(A.workspace, draft(100, 1_000));
    await stores.payments.completeDue(A.workspace, 7_000, 5_000);
    await stores.payments.transition(A.workspace, p.id, "any", "pending", 7_000, "control");
    await stores.payments.completeDue(A.workspace, 7_001, 5_000);
    expect((await stores.payments.payment(A.workspace, p.id))?.status).toBe("pending");
    await stores.payments.completeDue(A.workspace, 12_000, 5_000);
    const read = await stores.payments.payment(A.workspace, p.id);
    expect(read?.status).toBe("completed");
    expect(read?.completedAt).toBe(12_000);
    expect(read?.history.map((h) => [h.status, h.at])).toEqual([
      ["pending", 1_000],
      ["completed", 6_000],
      ["pending", 7_000],
      ["completed", 12_000],
    ]);
  });

  it("keeps history in time order when a change is stamped earlier than the last one (a rewound clock)", async () => {
    const p = await stores.payments.insert(A.workspace, draft(100, 1_000));
    await stores.payments.transition(A.workspace, p.id, "any", "processing", 4_000, "control");
    await stores.payments.transition(A.workspace, p.id, "any", "cancelled", 2_000, "control");
    const read = await stores.payments.payment(A.workspace, p.id);
    expect(read?.history.map((h) => h.at)).toEqual([1_000, 4_000, 4_000]);
  });

  it("a cancel racing completion: the payment ends cancelled or completed, never both, money moved at most once", async () => {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores.payments.insert(A.workspace, draft(100, i))),
    );
    await Promise.all([
      ...made.map((p) => stores.payments.transition(A.workspace, p.id, ["pending"], "cancelled", 9_000, "api")),
      stores.payments.completeDue(A.workspace, 9_000, 5_000),
      stores.payments.completeDue(A.workspace, 9_000, 5_000),
    ]);
    let completed = 0;
    for (const p of made) {
      const read = await stores.payments.payment(A.workspace, p.id);
      expect(read?.history.map((h) => h.status)).toEqual(["pending", read?.status]);
      if (read?.status === "completed") completed++;
    }
    expect(await balance(A.workspace, tryTo)).toBe((A.accounts[1]?.balanceMinor as number) + completed * 100);
  });
});

describe("the probes that let a request skip completion and settlement", () => {
  it("never say nothing is due when completing or settling would change a payment", async () => {
    const payments = stores.payments;
    // In memory the answer comes at once (nothingElapsed). A store that must ask the database cannot
    // answer at once, so it must not claim to; it asks both questions in one query (somethingElapsed).
    if (onPostgres()) {
      expect(payments.nothingElapsed).toBeUndefined();
      expect(payments.somethingElapsed).toBeTypeOf("function");
    } else expect(payments.nothingElapsed).toBeTypeOf("function");
    const probe = async (now: number) =>
      payments.nothingElapsed
        ? payments.nothingElapsed(A.workspace, now, 5_000)
        : !((await payments.somethingElapsed?.(A.workspace, now, 5_000)) ?? true);
    let saidNothing = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 200_000 }),
        // Up to four days on: past Istanbul midnights, when completed payments settle.
        fc.integer({ min: 0, max: 4 * 86_400_000 }),
        async (createdAts, completedBy, now) => {
          await payments.reset([A, B]);
          const made: StoredPayment[] = [];
          for (const at of [...createdAts].sort((x, y) => x - y))
            made.push(await payments.insert(A.workspace, draft(1, at)));
          await payments.completeDue(A.workspace, completedBy, 5_000);
          const statuses = async () =>
            Promise.all(made.map(async (p) => (await payments.payment(A.workspace, p.id))?.status));
          const said = await probe(now);
          const before = await statuses();
          await payments.completeDue(A.workspace, now, 5_000);
          await payments.settleDue(A.workspace, now);
          const after = await statuses();
          if (said) saidNothing++;
          if (said) expect(after).toEqual(before);
          if (JSON.stringify(after) !== JSON.stringify(before)) expect(said).toBe(false);
        },
      ),
      // Each run on PostgreSQL is a reset and a few statements: fewer runs there.
      { numRuns: onPostgres() ? 40 : 150 },
    );
    // The probe does answer true (it is not a constant false that would merely be safe).
    expect(saidNothing).toBeGreaterThan(0);
  });
});

describe("a request's share of completion", () => {
  it("completes at most one chunk when asked for one, and the rest when asked for all", async () => {
    for (let i = 0; i < 3_000; i += 500) {
      await Promise.all(
        Array.from({ length: 500 }, (_, n) => stores.payments.insert(A.workspace, draft(1, 1_000 + i + n))),
      );
    }
    const completed = async () => {
      const snapshot = await stores.payments.snapshot(A.workspace);
      const listed = await stores.payments.list(A.workspace, {
        afterSeq: 0,
        snapshotSeq: snapshot.seq,
        asOfVersion: snapshot.version,
        status: "completed",
        limit: 0,
        countTotal: true,
      });
      return listed.total ?? 0;
    };
    await stores.payments.completeDue(A.workspace, 1_000_000, 5_000, 1);
    const first = await completed();
    // One chunk: 2,000 in memory, 1,000 on PostgreSQL; never all 3,000.
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(2_000);
    await stores.payments.completeDue(A.workspace, 1_000_000, 5_000);
    expect(await completed()).toBe(3_000);
  });
});

describe("workspace settings (approval workflow, automatic settlement, report recipients)", () => {
  it("have their defaults in a fresh workspace, are set per workspace, and go back to the default when cleared", async () => {
    const cases = [
      [stores.approvalWorkflow, false, true],
      [stores.autoSettlement, true, false],
      [stores.reportRecipients, [], ["muhasebe@örnek.com.tr", "ops@example.com"]],
    ] as const;
    for (const [setting, fallback, value] of cases) {
      const typed = setting as {
        get(w: string): Promise<unknown>;
        set(w: string, v: unknown): Promise<void>;
        clear(w?: string): Promise<void>;
      };
      expect(await typed.get(A.workspace)).toEqual(fallback);
      await typed.set(A.workspace, value);
      await typed.set(B.workspace, value);
      expect(await typed.get(A.workspace)).toEqual(value);
      await typed.clear(A.workspace);
      expect(await typed.get(A.workspace)).toEqual(fallback);
      expect(await typed.get(B.workspace)).toEqual(value);
      await typed.clear();
      expect(await typed.get(B.workspace)).toEqual(fallback);
    }
  });

  it("settlement waits while the workspace's automatic settlement is off, and catches up once it is on", async () => {
    const p = await stores.payments.insert(A.workspace, draft(100, 1_000));
    await stores.payments.transition(A.workspace, p.id, ["pending"], "completed", 2_000, "control");
    const nextDay = 2 * 86_400_000;
    await stores.autoSettlement.set(A.workspace, false);
    expect(await stores.payments.settleDue(A.workspace, nextDay)).toBe(0);
    expect((await stores.payments.payment(A.workspace, p.id))?.status).toBe("completed");
    await stores.autoSettlement.set(A.workspace, true);
    expect(await stores.payments.settleDue(A.workspace, nextDay)).toBe(1);
    expect((await stores.payments.payment(A.workspace, p.id))?.status).toBe("settled");
  });
});

describe("the dashboard's approval workflow", () => {
  it("keeps who submitted and who approved on the history (the four-eyes rule compares them)", async () => {
    const maker = "0123456789abcdef sk_sandbox_…aaaa";
    const checker = "fedcba9876543210 sk_sandbox_…bbbb";
    const made = await stores.payments.insert(A.workspace, { ...dashboardDraft(100, 1_000, true), actor: maker });
    expect(made.history[0]?.actor).toBe(maker);
    await stores.payments.transition(A.workspace, made.id, ["pending"], "approved", 2_000, "dashboard", checker);
    const read = await stores.payments.payment(A.workspace, made.id);
    expect(read?.history.map((change) => change.actor)).toEqual([maker, checker]);
    // A change without an actor (completion, the API) has none.
    await stores.payments.completeDue(A.workspace, 10_000_000, 5_000);
    expect((await stores.payments.payment(A.workspace, made.id))?.history.at(-1)).not.toHaveProperty("actor");
  });

  it("a payment awaiting approval never completes; approved, it completes the delay after approval", async () => {
    const waiting = await stores.payments.insert(A.workspace, dashboardDraft(100, 1_000, true));
    expect(waiting.history).toEqual([expect.objectContaining({ status: "pending", cause: "dashboard" })]);
    await stores.payments.completeDue(A.workspace, 1_000_000, 5_000);
    expect((await stores.payments.payment(A.workspace, waiting.id))?.status).toBe("pending");
    const approved = await stores.payments.transition(
      A.workspace,
      waiting.id,
      ["pending"],
      "approved",
      2_000_000,
      "dashboard",
    );
    expect(approved.ok && approved.payment.status).toBe("approved");
    await stores.payments.completeDue(A.workspace, 2_004_999, 5_000);
    expect((await stores.payments.payment(A.workspace, waiting.id))?.status).toBe("approved");
    await stores.payments.completeDue(A.workspace, 2_005_000, 5_000);
    const done = await stores.payments.payment(A.workspace, waiting.id);
    expect(done?.history.map((h) => [h.status, h.at, h.cause])).toEqual([
      ["pending", 1_000, "dashboard"],
      ["approved", 2_000_000, "dashboard"],
      ["completed", 2_005_000, "completion"],
    ]);
    expect(await balance(A.workspace, tryTo)).toBe((A.accounts[1]?.balanceMinor as number) + 100);
  });

  it("a dashboard payment without the workflow starts processing and completes like any other, in due order", async () => {
    const processing = await stores.payments.insert(A.workspace, dashboardDraft(20, 500, false));
    const api = await stores.payments.insert(A.workspace, draft(10, 1_000));
    expect(processing.status).toBe("processing");
    await stores.payments.completeDue(A.workspace, 5_600, 5_000);
    expect((await stores.payments.payment(A.workspace, processing.id))?.status).toBe("completed");
    expect((await stores.payments.payment(A.workspace, api.id))?.status).toBe("pending");
    await stores.payments.completeDue(A.workspace, 6_000, 5_000);
    expect((await stores.payments.payment(A.workspace, api.id))?.history.at(-1)).toMatchObject({
      status: "completed",
      at: 6_000,
    });
  });
});

describe("creation order", () => {
  it("creation times never go backwards along the listing, so completion follows the listing", async () => {
    // Two instances' clocks a little apart: the later-numbered create computed an earlier time.
    const first = await stores.payments.insert(A.workspace, draft(1, 1_000));
    const second = await stores.payments.insert(A.workspace, draft(2, 400));
    expect([second.seq, second.createdAt, second.countdownFrom]).toEqual([first.seq + 1, 1_000, 1_000]);
    expect((await stores.payments.payment(A.workspace, second.id))?.createdAt).toBe(1_000);
    // The debit account covers all but the last in the listing.
    const account = A.accounts.find((a) => a.id === tryFrom) as { balanceMinor: number };
    // Listing order: the rest of the balance, then 1 more (computed earlier, so due earlier unless raised).
    const rest = await stores.payments.insert(A.workspace, draft(account.balanceMinor - 3, 900));
    const one = await stores.payments.insert(A.workspace, draft(1, 800));
    await stores.payments.completeDue(A.workspace, 10_000, 5_000);
    const statuses = await Promise.all(
      [first, second, rest, one].map(async (p) => (await stores.payments.payment(A.workspace, p.id))?.status),
    );
    expect(statuses).toEqual(["completed", "completed", "completed", "failed"]);
  });
});

describe("listings", () => {
  it("filter by method and by account (either side), with totals", async () => {
    const usd = A.accounts.find((a) => a.currency === "USD")?.id as string;
    const card = await stores.payments.insert(A.workspace, draft(1, 1_000, { method: "card" }));
    await stores.payments.insert(A.workspace, draft(2, 1_001));
    const snap = await stores.payments.snapshot(A.workspace);
    const query = { afterSeq: 0, snapshotSeq: snap.seq, asOfVersion: snap.version, limit: 10, countTotal: true };
    const byMethod = await stores.payments.list(A.workspace, { ...query, method: "card" });
    expect([byMethod.total, byMethod.items.map((p) => p.id)]).toEqual([1, [card.id]]);
    expect((await stores.payments.list(A.workspace, { ...query, account: tryTo })).total).toBe(2);
    expect((await stores.payments.list(A.workspace, { ...query, account: tryFrom })).total).toBe(2);
    expect(await stores.payments.list(A.workspace, { ...query, account: usd })).toEqual({ items: [], total: 0 });
    const both = await stores.payments.list(A.workspace, { ...query, account: tryFrom, method: "eft" });
    expect(both.total).toBe(1);
  });

  it("read a snapshot: payments and changes after it are not seen, statuses are as they were", async () => {
    const p1 = await stores.payments.insert(A.workspace, draft(100, 1_000));
    const p2 = await stores.payments.insert(A.workspace, draft(200, 2_000));
    const snap = await stores.payments.snapshot(A.workspace);
    await stores.payments.insert(A.workspace, draft(300, 3_000));
    await stores.payments.transition(A.workspace, p1.id, "any", "completed", 4_000, "control");
    const query = { afterSeq: 0, snapshotSeq: snap.seq, asOfVersion: snap.version, limit: 10, countTotal: true };
    const all = await stores.payments.list(A.workspace, query);
    expect(all.total).toBe(2);
    expect(all.items.map((p) => [p.id, p.status, p.completedAt])).toEqual([
      [p1.id, "pending", undefined],
      [p2.id, "pending", undefined],
    ]);
    const pending = await stores.payments.list(A.workspace, { ...query, status: "pending" });
    expect(pending.total).toBe(2);
    const completed = await stores.payments.list(A.workspace, { ...query, status: "completed" });
    expect(completed).toEqual({ items: [], total: 0 });
    const now = await stores.payments.snapshot(A.workspace);
    const present = await stores.payments.list(A.workspace, {
      ...query,
      snapshotSeq: now.seq,
      asOfVersion: now.version,
      status: "completed",
    });
    expect(present.items.map((p) => [p.id, p.completedAt])).toEqual([[p1.id, 4_000]]);
  });

  it("pages after a seq, within inclusive date bounds, counting only when asked", async () => {
    for (let i = 0; i < 6; i++) await stores.payments.insert(A.workspace, draft(100 + i, 1_000 * (i + 1)));
    const snap = await stores.payments.snapshot(A.workspace);
    const base = { snapshotSeq: snap.seq, asOfVersion: snap.version, limit: 2, createdFrom: 2_000, createdTo: 5_000 };
    const first = await stores.payments.list(A.workspace, { ...base, afterSeq: 0, countTotal: true });
    expect(first.items.map((p) => p.amount)).toEqual([101, 102]);
    expect(first.total).toBe(4);
    const next = await stores.payments.list(A.workspace, { ...base, afterSeq: 3, countTotal: false });
    expect(next.items.map((p) => p.amount)).toEqual([103, 104]);
    expect(next.total).toBeUndefined();
    const last = await stores.payments.list(A.workspace, { ...base, afterSeq: 5, countTotal: false });
    expect(last.items).toEqual([]);
  });
});

function cardPayment(referenceId: string, fingerprint = "print-1"): StoredCardPayment {
  return {
    payment: {
      referenceId,
      paymentStatus: "SUCCESS",
      amount: 10,
      cardDetails: { cardNumber: "552879******0008" },
    } as unknown as CardPayment,
    fingerprint,
    commission: 0.25,
    localDate: "2026-11-22",
  };
}

describe("gateway store", () => {
  it("one charge per referenceId, however many racing inserts", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stores.gateway.insertIfAbsent(cardPayment("ref-1", `print-${i}`))),
    );
    expect(results.filter((r) => r.inserted)).toHaveLength(1);
    const winner = results.find((r) => r.inserted)?.stored.fingerprint;
    expect(new Set(results.map((r) => r.stored.fingerprint))).toEqual(new Set([winner]));
    expect(await stores.gateway.onLocalDate("2026-11-22")).toHaveLength(1);
  });

  it("keeps payments in arrival order per local date, tokens with their expiry, and distinct order numbers", async () => {
    for (const ref of ["ref-a", "ref-b", "ref-c"]) await stores.gateway.insertIfAbsent(cardPayment(ref));
    expect((await stores.gateway.onLocalDate("2026-11-22")).map((p) => p.payment.referenceId)).toEqual([
      "ref-a",
      "ref-b",
      "ref-c",
    ]);
    expect(await stores.gateway.onLocalDate("2026-11-21")).toEqual([]);
    expect((await stores.gateway.byReference("ref-b"))?.commission).toBe(0.25);
    await stores.gateway.saveToken("tok", 123_456);
    expect(await stores.gateway.tokenExpiry("tok")).toBe(123_456);
    expect(await stores.gateway.tokenExpiry("other")).toBeUndefined();
    const numbers = await Promise.all(Array.from({ length: 20 }, () => stores.gateway.nextOrderNumber()));
    expect(new Set(numbers).size).toBe(20);
    await stores.gateway.clearPayments();
    expect(await stores.gateway.byReference("ref-b")).toBeUndefined();
    expect(await stores.gateway.tokenExpiry("tok")).toBe(123_456);
    await stores.gateway.reset();
    expect(await stores.gateway.tokenExpiry("tok")).toBeUndefined();
  });
});

describe("clock store", () => {
  it("adds concurrent advances up, refuses past the limit, and resets per scope", async () => {
    await Promise.all(Array.from({ length: 10 }, () => stores.clocks.advance("s", 1_000, 9_500)));
    expect(await stores.clocks.offsetMs("s")).toBe(9_000);
    expect(await stores.clocks.advance("s", 1_000, 9_500)).toEqual({ moved: false, offsetMs: 9_000 });
    await stores.clocks.advance("t", 5, 9_500);
    await stores.clocks.reset("s");
    expect([await stores.clocks.offsetMs("s"), await stores.clocks.offsetMs("t")]).toEqual([0, 5]);
    await stores.clocks.reset();
    expect(await stores.clocks.offsetMs("t")).toBe(0);
  });
});
