import { createHash } from "node:crypto";
import type { CardPayment } from "@payspec/card-gateway-zod";
import type pg from "pg";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

interface CardPaymentRow {
  payment: CardPayment;
  fingerprint: string;
  commission: number;
  local_date: string;
}

const toStored = (row: CardPaymentRow): StoredCardPayment => ({
  payment: row.payment,
  fingerprint: row.fingerprint,
  commission: row.commission,
  localDate: row.local_date,
});

const tokenKey = (token: string) => createHash("sha256").update(token).digest("hex");

/** The gateway's state in PostgreSQL: tokens (as hashes) and card payments (masked, no CVC), shared by every instance. */
export class PostgresGatewayStore implements GatewayStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async reset() {
    await this.#pool.query("TRUNCATE card_payments, gateway_tokens");
  }

  async clearPayments() {
    await this.#pool.query("DELETE FROM card_payments");
  }

  async saveToken(token: string, expiresAt: number) {
    await this.#pool.query(
      `INSERT INTO gateway_tokens (token_sha256, expires_at) VALUES ($1, $2)
       ON CONFLICT (token_sha256) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [tokenKey(token), expiresAt],
    );
  }

  async tokenExpiry(token: string) {
    const { rows } = await this.#pool.query<{ expires_at: string }>({
      name: "payspec_token_expiry",
      text: "SELECT expires_at FROM gateway_tokens WHERE token_sha256 = $1",
      values: [tokenKey(token)],
    });
    return rows[0] ? Number(rows[0].expires_at) : undefined;
  }

  async nextOrderNumber() {
    const { rows } = await this.#pool.query<{ n: string }>("SELECT nextval('gateway_order_numbers') AS n");
    return Number(rows[0]?.n);
  }

  async insertIfAbsent(payment: StoredCardPayment) {
    // The unique referenceId decides between instances racing on one reference: one insert wins,
    // the others read what it stored.
    const inserted = await this.#pool.query(
      `INSERT INTO card_payments (reference_id, payment, fingerprint, commission, local_date)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference_id) DO NOTHING`,
      [
        payment.payment.referenceId,
        JSON.stringify(payment.payment),
        payment.fingerprint,
        payment.commission,
        payment.localDate,
      ],
    );
    if (inserted.rowCount === 1) return { inserted: true, stored: payment };
    const stored = await this.byReference(payment.payment.referenceId);
    if (!stored)
      throw new Error(`Card payment ${payment.payment.referenceId} vanished while being read; send it again.`);
    return { inserted: false, stored };
  }

  async byReference(referenceId: string) {
    const { rows } = await this.#pool.query<CardPaymentRow>(
      "SELECT payment, fingerprint, commission, local_date FROM card_payments WHERE reference_id = $1",
      [referenceId],
    );
    return rows[0] ? toStored(rows[0]) : undefined;
  }

  async onLocalDate(date: string) {
    const { rows } = await this.#pool.query<CardPaymentRow>(
      "SELECT payment, fingerprint, commission, local_date FROM card_payments WHERE local_date = $1 ORDER BY position",
      [date],
    );
    return rows.map(toStored);
  }
}
