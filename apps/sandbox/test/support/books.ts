import { expect } from "vitest";
import { seedWorkspace } from "../../src/index.js";
import { type Harness, KEY } from "./harness.js";

/** Every balance must equal its seed plus the payments whose money has moved: no money made or lost. */
export async function expectBooksBalanced(h: Harness, key: string = KEY): Promise<void> {
  const seed = new Map(seedWorkspace(key).accounts.map((a) => [a.id, a.balanceMinor]));
  const all = (await h.call("GET", "/v1/payments?limit=10000", { key })).body.data as {
    amount: number;
    status: string;
    from_account: string;
    to_account: string;
  }[];
  for (const p of all) {
    if (!["completed", "settled", "reconciled"].includes(p.status)) continue;
    seed.set(p.from_account, (seed.get(p.from_account) ?? 0) - p.amount);
    seed.set(p.to_account, (seed.get(p.to_account) ?? 0) + p.amount);
  }
  for (const account of await h.accounts(key)) {
    expect(Math.round(account.balance * 100), account.id).toBe(seed.get(account.id));
  }
}
