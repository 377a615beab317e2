import { binPath } from "@payspec/bench-kit";
import { DEMO_API_KEYS, seedWorkspace } from "@payspec/sandbox";

/** The demo workspace every sandbox benchmark drives: its key, headers, and a create between its TRY accounts. */
export const key = DEMO_API_KEYS[0];
export const auth = { authorization: `Bearer ${key}` };
export const json = { ...auth, "content-type": "application/json" };
/** The workspace's two TRY accounts. */
export const tryAccounts = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];
export const createBody = JSON.stringify({
  amount: 1000,
  currency: "TRY",
  method: "eft",
  from_account: tryAccounts[0],
  to_account: tryAccounts[1],
});
export const postCreate = { method: "POST" as const, headers: json, body: createBody };

export const sandboxBin = binPath("@payspec/sandbox", import.meta.resolve);
/** A completion delay far beyond any run keeps every payment pending: a create is one insert. */
export const PENDING_FOR_THE_RUN = { PAYSPEC_COMPLETE_AFTER_SECONDS: "1000000" };
export const url = (port: number, path = "") => `http://127.0.0.1:${port}${path}`;

/** How many payments the demo workspace lists (of one status, when given): its listing's total. */
export async function paymentsTotal(base: string, status?: string): Promise<number> {
  const answer = await fetch(`${base}/v1/payments?${status ? `status=${status}&` : ""}limit=1`, { headers: auth });
  if (answer.status !== 200) throw new Error(`GET /v1/payments answered ${answer.status}.`);
  return ((await answer.json()) as { pagination: { total: number } }).pagination.total;
}
