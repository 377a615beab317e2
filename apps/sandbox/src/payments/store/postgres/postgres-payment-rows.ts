import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import type pg from "pg";
import type { PaymentRecord, Writable } from "../payments-store.js";
import { changeChunk } from "./postgres-chunk-statements.js";

/**
 * A payment as PostgreSQL keeps it: the columns, the row, and one bulk move, for the payments store's
 * own queries. Other features never see these: they go through `PaymentsStore`.
 */
export interface PaymentRow {
  seq: string;
  id: string;
  amount: string;
  currency: string;
  method: string;
  from_account: string;
  to_account: string;
  description: string | null;
  reference: string | null;
  status: string;
  created_at: string;
  completed_at: string | null;
  settled_at: string | null;
  countdown_from: string | null;
  version: string;
}

export const PAYMENT_COLUMNS =
  "seq, id, amount, currency, method, from_account, to_account, description, reference, status, created_at, completed_at, settled_at, countdown_from, version";

export /** bigint columns arrive as text (pg keeps 64-bit exact); every value we store fits a double exactly. */
const num = (value: string | number) => Number(value);

export function toRecord(row: PaymentRow): PaymentRecord {
  // Fields set one by one, not spread in: every GET by id reads a record this way. A column a
  // statement leaves out (undefined) is absent, as one that is null.
  const record: Writable<PaymentRecord> = {
    seq: num(row.seq),
    id: row.id,
    amount: num(row.amount),
    currency: row.currency,
    method: row.method as PaymentMethod,
    from_account: row.from_account,
    to_account: row.to_account,
    status: row.status as PaymentStatus,
    createdAt: num(row.created_at),
  };
  if (row.description != null) record.description = row.description;
  if (row.reference != null) record.reference = row.reference;
  if (row.completed_at != null) record.completedAt = num(row.completed_at);
  if (row.settled_at != null) record.settledAt = num(row.settled_at);
  if (row.countdown_from != null) record.countdownFrom = num(row.countdown_from);
  return record;
}

/**
 * Moves settled payments (by seq) to `reconciled` at `at`, each with its history entry, inside the
 * caller's transaction, which holds the workspace's lock. No money moves: reconciled is a status
 * the money already reached.
 */
export async function markReconciled(
  client: pg.ClientBase,
  workspace: string,
  seqs: readonly number[],
  at: number,
): Promise<void> {
  if (seqs.length === 0) return;
  await changeChunk(client, "reconciliation", [workspace, seqs, seqs.length, at]);
}
