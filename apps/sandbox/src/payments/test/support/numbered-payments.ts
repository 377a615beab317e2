import { seedWorkspace } from "../../creation/seed.js";
import { MemoryPaymentsStore } from "../../store/memory/memory-payments-store.js";
import type { NewPayment } from "../../store/payments-store.js";

/** The id of the payment made `i`-th by `numberedPayments`. */
export const numberedId = (i: number) => `pay_${String(i).padStart(16, "0")}`;

/**
 * A memory store whose one workspace holds `count` pending payments between its two TRY accounts,
 * made a millisecond apart and numbered from 0 (`numberedId`), each with what `extra` adds: enough of
 * them to span several of the store's stretches of 1,024.
 */
export async function numberedPayments(
  key: string,
  count: number,
  extra: (i: number) => Partial<NewPayment> = () => ({}),
): Promise<{ store: MemoryPaymentsStore; workspace: string; accounts: [string, string] }> {
  const seed = seedWorkspace(key);
  const accounts = seed.accounts.filter((x) => x.currency === "TRY").map((x) => x.id) as [string, string];
  const store = new MemoryPaymentsStore();
  await store.reset([seed]);
  for (let i = 0; i < count; i++)
    await store.insert(seed.workspace, {
      id: numberedId(i),
      amount: 1,
      currency: "TRY",
      method: "eft",
      from_account: accounts[0],
      to_account: accounts[1],
      createdAt: 1_764_000_000_000 + i,
      status: "pending",
      cause: "api",
      ...extra(i),
    });
  return { store, workspace: seed.workspace, accounts };
}
