import type pg from "pg";
import type { WorkspaceSeed } from "../../store/payments-store.js";
import { type CopiedColumns, copyFirstPayment } from "../../store/postgres/payment-copies.js";
import type { PostgresPaymentsStore } from "../../store/postgres/postgres-payments-store.js";

/** Copies of a workspace's first payment, numbered `first` to `last` (see copyFirstPayment). */
export type CopyPayments = (columns: CopiedColumns, first: number, last: number) => Promise<void>;

/**
 * Makes the workspace's first payment with a real create, every column as the store writes it, and
 * returns what copies it in bulk, for tests that need a large workspace in seconds.
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
  return (columns, first, last) => copyFirstPayment(pool, seed.workspace, { first, last }, columns);
}
