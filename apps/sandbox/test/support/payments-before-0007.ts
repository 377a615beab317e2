import type pg from "pg";

export interface OldPayment {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly createdAt: number;
  /** Changes after creation, oldest first, as payment_history held them. */
  readonly changes?: readonly { status: string; at: number; cause: string; completedAt?: number }[];
}

/**
 * Payments as the releases before migration 0007 stored them: the row, with its creation as the first
 * entry of payment_history. Written in SQL because today's store writes the newer layout. Versions
 * are handed out payment by payment: the creation, then its changes.
 */
export async function insertPaymentsBefore0007(
  db: pg.Pool,
  workspace: string,
  payments: readonly OldPayment[],
): Promise<void> {
  let version = 0;
  for (const [i, p] of payments.entries()) {
    const seq = i + 1;
    const history = [{ status: "pending", at: p.createdAt, cause: "api", completedAt: null as number | null }];
    for (const c of p.changes ?? []) history.push({ ...c, completedAt: c.completedAt ?? null });
    const first = version + 1;
    version += history.length;
    const last = history[history.length - 1] as (typeof history)[number];
    await db.query(
      `INSERT INTO payments (workspace, seq, id, amount, currency, method, from_account, to_account, status,
                             created_at, completed_at, countdown_from, version)
       VALUES ($1, $2, $3, 100, 'TRY', 'eft', $4, $5, $6, $7, $8, $7, $9)`,
      [workspace, seq, p.id, p.from, p.to, last.status, p.createdAt, last.completedAt, version],
    );
    for (const [n, h] of history.entries()) {
      await db.query(
        `INSERT INTO payment_history (workspace, seq, version, status, at, cause, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [workspace, seq, first + n, h.status, h.at, h.cause, h.completedAt],
      );
    }
  }
  await db.query("UPDATE workspaces SET payment_count = $2, version = $3 WHERE workspace = $1", [
    workspace,
    payments.length,
    version,
  ]);
}
