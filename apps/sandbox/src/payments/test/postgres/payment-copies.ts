import type pg from "pg";
import type { WorkspaceSeed } from "../../payments-store.js";
import type { PostgresPaymentsStore } from "../../postgres-payments-store.js";

/** Copies of a workspace's first payment: each column an SQL expression of `g` (the copy's number) and `p` (the first payment). */
export type CopyPayments = (columns: Readonly<Record<string, string>>, first: number, last: number) => Promise<void>;

/**
 * Makes the workspace's first payment with a real create, every column as the store writes it, and
 * returns what copies it in bulk (numbered `first` to `last`), for tests that need a large workspace
 * in seconds. Columns not given are the first payment's.
 */
export async function firstPaymentToCopy(
  pool: pg.Pool,
  store: PostgresPaymentsStore,
  seed: WorkspaceSeed,
  createdAt: number,
): Promise<CopyPayments> {
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
  await store.insert(seed.workspace, {
    id: "pay_0000000000000001",
    amount: 100,
    currency: "TRY",
    method: "eft",
    from_account: from as string,
    to_account: to as string,
    createdAt,
    countdownFrom: createdAt,
    status: "pending",
    cause: "api",
  });
  const columns = (
    await pool.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' ORDER BY ordinal_position",
    )
  ).rows.map((r) => r.column_name);
  return async (made, first, last) => {
    const numbered: Record<string, string> = {
      seq: "g",
      id: "'pay_' || lpad(g::text, 16, '0')",
      version: "g",
      created_version: "g",
      ...made,
    };
    await pool.query(
      `INSERT INTO payments (${columns.join(", ")})
       SELECT ${columns.map((c) => numbered[c] ?? `p.${c}`).join(", ")}
       FROM payments p, generate_series(${first}, ${last}) g WHERE p.workspace = $1 AND p.seq = 1`,
      [seed.workspace],
    );
  };
}
