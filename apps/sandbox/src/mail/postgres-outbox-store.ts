import type pg from "pg";
import type { SharedTransaction } from "../infrastructure/postgres/transaction.js";
import type { MailDelivery, OutboxMessage, OutboxStore } from "./outbox-store.js";

interface OutboxRow {
  id: string;
  workspace_tag: string;
  created_at: string;
  recipients: string[];
  subject: string;
  body_text: string;
  body_html: string;
  attachments: { filename: string; contentType: string; base64: string }[];
  delivery: MailDelivery;
}

const COLUMNS = "id, workspace_tag, created_at, recipients, subject, body_text, body_html, attachments, delivery";

function toMessage(row: OutboxRow): OutboxMessage {
  return {
    id: row.id,
    workspaceTag: row.workspace_tag,
    createdAt: Number(row.created_at),
    to: row.recipients,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html,
    attachments: row.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.base64, "base64"),
    })),
    delivery: row.delivery,
  };
}

/** When the delivery queue should next look at a message; null once it is out of the queue. */
function nextAttempt(delivery: MailDelivery): number | null {
  return delivery.state === "queued" || delivery.state === "retrying" ? delivery.nextAttemptAt : null;
}

/** The SQL and parameters that insert one message: also used inside an export job's completing transaction. */
function insertOutboxMessage(message: OutboxMessage): [string, unknown[]] {
  return [
    `INSERT INTO outbox (${COLUMNS}, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      message.id,
      message.workspaceTag,
      message.createdAt,
      JSON.stringify(message.to),
      message.subject,
      message.text,
      message.html,
      JSON.stringify(
        message.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          base64: a.content.toString("base64"),
        })),
      ),
      JSON.stringify(message.delivery),
      nextAttempt(message.delivery),
    ],
  ];
}

/** The outbox in PostgreSQL: every instance shows the same mail, and one instance sends each message. */
export class PostgresOutboxStore implements OutboxStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async add(message: OutboxMessage, transaction?: SharedTransaction) {
    await (transaction?.sql ?? this.#pool).query(...insertOutboxMessage(message));
  }

  async list(workspaceTag: string, limit: number) {
    const { rows } = await this.#pool.query<OutboxRow>(
      `SELECT ${COLUMNS} FROM outbox WHERE workspace_tag = $1 ORDER BY position DESC LIMIT $2`,
      [workspaceTag, limit],
    );
    return rows.map(toMessage);
  }

  async get(workspaceTag: string, id: string) {
    const { rows } = await this.#pool.query<OutboxRow>(
      `SELECT ${COLUMNS} FROM outbox WHERE workspace_tag = $1 AND id = $2`,
      [workspaceTag, id],
    );
    return rows[0] && toMessage(rows[0]);
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    // SKIP LOCKED: two instances polling at once take different messages; the lease (next_attempt_at
    // moved ahead) keeps a message from being taken again while its attempt runs.
    const { rows } = await this.#pool.query<OutboxRow>(
      `UPDATE outbox SET next_attempt_at = $2,
         delivery = jsonb_set(delivery, '{nextAttemptAt}', to_jsonb($2::bigint))
       WHERE id IN (SELECT id FROM outbox WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [now, leaseUntil, limit],
    );
    return rows.map(toMessage);
  }

  async setDelivery(id: string, delivery: MailDelivery) {
    await this.#pool.query("UPDATE outbox SET delivery = $2, next_attempt_at = $3 WHERE id = $1", [
      id,
      JSON.stringify(delivery),
      nextAttempt(delivery),
    ]);
  }

  async deleteFor(workspaceTag?: string) {
    if (workspaceTag === undefined) await this.#pool.query("DELETE FROM outbox");
    else await this.#pool.query("DELETE FROM outbox WHERE workspace_tag = $1", [workspaceTag]);
  }
}
