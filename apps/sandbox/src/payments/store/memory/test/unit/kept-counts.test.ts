import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import fc from "fast-check";
import { expect, it } from "vitest";
import { seedWorkspace } from "../../../../creation/seed.js";
import type { PaymentQuery } from "../../../payments-store.js";
import { MemoryPaymentsStore } from "../../memory-payments-store.js";

const STATUSES: PaymentStatus[] = ["pending", "approved", "processing", "completed", "failed", "cancelled", "settled"];
const METHODS: PaymentMethod[] = ["eft", "card", "bank_transfer", "virtual_account"];

type Step =
  | { make: { method: number; reversed: boolean; waits: boolean } }
  | { change: { payment: number; to: number } }
  | { snapshot: true }
  | { count: { snapshot: number; status?: number; method?: number; account?: number; awaiting?: boolean } };

/**
 * The in-memory store's totals for status, method and account filters come from kept counts and the
 * latest changes; for any sequence of creates and status changes, at any earlier snapshot, they equal
 * the payments that matched then, counted one by one from what the store held at that snapshot.
 */
it("counts each status, method and account filter exactly at any snapshot, for any creates and changes", async () => {
  const step = fc.oneof(
    {
      arbitrary: fc.record({ make: fc.record({ method: fc.nat(3), reversed: fc.boolean(), waits: fc.boolean() }) }),
      weight: 4,
    },
    { arbitrary: fc.record({ change: fc.record({ payment: fc.nat(), to: fc.nat(STATUSES.length - 1) }) }), weight: 4 },
    { arbitrary: fc.constant({ snapshot: true as const }), weight: 1 },
    {
      arbitrary: fc.record(
        {
          count: fc.record(
            {
              snapshot: fc.nat(),
              status: fc.nat(STATUSES.length - 1),
              method: fc.nat(3),
              account: fc.nat(1),
              awaiting: fc.boolean(),
            },
            { requiredKeys: ["snapshot"] },
          ),
        },
        { requiredKeys: ["count"] },
      ),
      weight: 2,
    },
  );
  await fc.assert(
    fc.asyncProperty(fc.array(step as fc.Arbitrary<Step>, { minLength: 60, maxLength: 240 }), async (steps) => {
      const seed = seedWorkspace("sk_sandbox_counts");
      const [a, b] = seed.accounts.filter((x) => x.currency === "TRY").map((x) => x.id) as [string, string];
      const store = new MemoryPaymentsStore();
      await store.reset([seed]);
      const workspace = seed.workspace;
      const ids: string[] = [];
      /** Each snapshot, with every payment as the store held it then. */
      const snapshots: {
        seq: number;
        version: number;
        held: { status: string; method: string; from: string; to: string }[];
      }[] = [];
      for (const s of steps) {
        if ("make" in s) {
          const made = await store.insert(workspace, {
            id: `pay_${String(ids.length).padStart(16, "0")}`,
            amount: 1,
            currency: "TRY",
            method: METHODS[s.make.method] as PaymentMethod,
            from_account: s.make.reversed ? b : a,
            to_account: s.make.reversed ? a : b,
            createdAt: 1_764_000_000_000 + ids.length,
            // A dashboard payment under the approval workflow has no countdown until it is approved.
            ...(s.make.waits ? {} : { countdownFrom: 1_764_000_000_000 }),
            status: "pending",
            cause: s.make.waits ? "dashboard" : "api",
          });
          ids.push(made.id);
        } else if ("change" in s && ids.length > 0) {
          const id = ids[s.change.payment % ids.length] as string;
          // Approved from the dashboard, a waiting payment's countdown starts; any other change is the control API's.
          const to = STATUSES[s.change.to] as PaymentStatus;
          await store.transition(workspace, id, "any", to, Date.now(), to === "approved" ? "dashboard" : "control");
        } else if ("snapshot" in s) {
          const { seq, version } = await store.snapshot(workspace);
          const held = [];
          for (const id of ids.slice(0, seq)) {
            const p = await store.payment(workspace, id);
            held.push({
              status: p?.status ?? "",
              method: p?.method ?? "",
              from: p?.from_account ?? "",
              to: p?.to_account ?? "",
            });
          }
          snapshots.push({ seq, version, held });
        } else if ("count" in s && snapshots.length > 0) {
          const at = snapshots[s.count.snapshot % snapshots.length] as (typeof snapshots)[number];
          const status = s.count.status === undefined ? undefined : STATUSES[s.count.status];
          const method = s.count.method === undefined ? undefined : METHODS[s.count.method];
          const account = s.count.account === undefined ? undefined : [a, b][s.count.account];
          const awaiting = s.count.awaiting === true;
          const query: PaymentQuery = {
            afterSeq: 0,
            snapshotSeq: at.seq,
            asOfVersion: at.version,
            limit: 5,
            countTotal: true,
            ...(status ? { status } : {}),
            ...(method ? { method } : {}),
            ...(account ? { account } : {}),
            ...(awaiting ? { awaitingApproval: true } : {}),
          };
          // The approvals queue is as it is now (a countdown, once started, is the payment's own):
          // its status as at the snapshot, its countdown as it is.
          const waitingNow = new Set<string>();
          for (const id of ids.slice(0, at.seq)) {
            const p = await store.payment(workspace, id);
            if (p?.countdownFrom === undefined) waitingNow.add(id);
          }
          const expected = at.held.filter(
            (p, i) =>
              (!awaiting || (p.status === "pending" && waitingNow.has(ids[i] as string))) &&
              (!status || p.status === status) &&
              (!method || p.method === method) &&
              (!account || p.from === account || p.to === account),
          ).length;
          expect(
            (await store.list(workspace, query)).total,
            JSON.stringify({ status, method, account, awaiting }),
          ).toBe(expected);
        }
      }
    }),
    { numRuns: 60 },
  );
});
