import type pg from "pg";
import { inTransaction, type SharedTransaction } from "../infrastructure/postgres/transaction.js";
import type { OutboxMessage, OutboxStore } from "../mail/index.js";
import type { CursorState } from "../payments/index.js";
import type { ExportJob, ExportJobState, ExportJobStore } from "./export-job-store.js";

interface JobRow {
  id: string;
  workspace_tag: string;
  format: "csv" | "pdf";
  listing: CursorState;
  total: number;
  requested_at: string;
  state: ExportJobState;
  rows_written: number;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
  ready_at: string | null;
  expires_at: string | null;
  bytes: number | null;
  error: string | null;
}

const COLUMNS =
  "id, workspace_tag, format, listing, total, requested_at, state, rows_written, lease_owner, lease_until, attempts, ready_at, expires_at, bytes, error";

const optional = <K extends string, V>(key: K, value: V | null) =>
  (value === null ? {} : { [key]: value }) as Partial<Record<K, V>>;

function toJob(row: JobRow): ExportJob {
  return {
    id: row.id,
    workspaceTag: row.workspace_tag,
    format: row.format,
    listing: row.listing,
    total: row.total,
    requestedAt: Number(row.requested_at),
    state: row.state,
    rowsWritten: row.rows_written,
    attempts: row.attempts,
    ...optional("leaseOwner", row.lease_owner),
    ...optional("leaseUntil", row.lease_until === null ? null : Number(row.lease_until)),
    ...optional("readyAt", row.ready_at === null ? null : Number(row.ready_at)),
    ...optional("expiresAt", row.expires_at === null ? null : Number(row.expires_at)),
    ...optional("bytes", row.bytes),
    ...optional("error", row.error),
  };
}

/** The SQL that inserts a job as it stands (queued, or ready at once). */
function insertJob(job: ExportJob): [string, unknown[]] {
  return [
    `INSERT INTO export_jobs (id, workspace_tag, format, listing, total, requested_at, state, rows_written, attempts, ready_at, expires_at, bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      job.id,
      job.workspaceTag,
      job.format,
      JSON.stringify(job.listing),
      job.total,
      job.requestedAt,
      job.state,
      job.rowsWritten,
      job.attempts,
      job.readyAt ?? null,
      job.expiresAt ?? null,
      job.bytes ?? null,
    ],
  ];
}

/** Export jobs in PostgreSQL: any instance may take a job over when the one running it stops. */
export class PostgresExportJobStore implements ExportJobStore {
  readonly #pool: pg.Pool;
  readonly #outbox: OutboxStore;

  /** `outbox`: the PostgreSQL outbox on the same pool; a job's e-mail is kept with its file. */
  constructor(pool: pg.Pool, outbox: OutboxStore) {
    this.#pool = pool;
    this.#outbox = outbox;
  }

  async add(job: ExportJob) {
    await this.#pool.query(...insertJob(job));
  }

  async addReady(job: ExportJob, file: Buffer, transaction?: SharedTransaction) {
    const write = async (client: pg.ClientBase) => {
      await client.query(...insertJob(job));
      await client.query("INSERT INTO export_files (job_id, content) VALUES ($1, $2)", [job.id, file]);
    };
    if (transaction?.sql) await write(transaction.sql);
    else await inTransaction(this.#pool, write);
  }

  async list(workspaceTag: string, limit: number) {
    const { rows } = await this.#pool.query<JobRow>(
      `SELECT ${COLUMNS} FROM export_jobs WHERE workspace_tag = $1 ORDER BY position DESC LIMIT $2`,
      [workspaceTag, limit],
    );
    return rows.map(toJob);
  }

  async get(workspaceTag: string, id: string) {
    const { rows } = await this.#pool.query<JobRow>(
      `SELECT ${COLUMNS} FROM export_jobs WHERE workspace_tag = $1 AND id = $2`,
      [workspaceTag, id],
    );
    return rows[0] && toJob(rows[0]);
  }

  async claim(owner: string, now: number, leaseUntil: number) {
    const { rows } = await this.#pool.query<JobRow>(
      `UPDATE export_jobs SET state = 'running', lease_owner = $1, lease_until = $3, attempts = attempts + 1, rows_written = 0
       WHERE id = (SELECT id FROM export_jobs
                   WHERE state = 'queued' OR (state = 'running' AND lease_until < $2)
                   ORDER BY position LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [owner, now, leaseUntil],
    );
    return rows[0] && toJob(rows[0]);
  }

  async progress(id: string, owner: string, rowsWritten: number, leaseUntil: number) {
    const { rowCount } = await this.#pool.query(
      `UPDATE export_jobs SET rows_written = $3, lease_until = $4 WHERE id = $1 AND state = 'running' AND lease_owner = $2`,
      [id, owner, rowsWritten, leaseUntil],
    );
    return rowCount === 1;
  }

  async complete(
    id: string,
    owner: string,
    file: Buffer,
    done: { readyAt: number; expiresAt: number },
    mail?: OutboxMessage,
  ) {
    return inTransaction(this.#pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE export_jobs SET state = 'ready', rows_written = total, lease_owner = NULL, lease_until = NULL,
           ready_at = $3, expires_at = $4, bytes = $5
         WHERE id = $1 AND state = 'running' AND lease_owner = $2`,
        [id, owner, done.readyAt, done.expiresAt, file.length],
      );
      if (rowCount !== 1) return false;
      await client.query("INSERT INTO export_files (job_id, content) VALUES ($1, $2)", [id, file]);
      if (mail) await this.#outbox.add(mail, { sql: client });
      return true;
    });
  }

  async fail(id: string, owner: string, error: string) {
    await this.#pool.query(
      `UPDATE export_jobs SET state = 'failed', error = $3, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND state = 'running' AND lease_owner = $2`,
      [id, owner, error],
    );
  }

  async release(id: string, owner: string) {
    await this.#pool.query(
      `UPDATE export_jobs SET state = 'queued', rows_written = 0, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND state = 'running' AND lease_owner = $2`,
      [id, owner],
    );
  }

  async file(workspaceTag: string, id: string) {
    const { rows } = await this.#pool.query<{ content: Buffer }>(
      `SELECT f.content FROM export_files f JOIN export_jobs j ON j.id = f.job_id WHERE j.workspace_tag = $1 AND j.id = $2`,
      [workspaceTag, id],
    );
    return rows[0]?.content;
  }

  async expire(workspaceTag: string, now: number) {
    await inTransaction(this.#pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `UPDATE export_jobs SET state = 'expired' WHERE workspace_tag = $1 AND state = 'ready' AND expires_at <= $2 RETURNING id`,
        [workspaceTag, now],
      );
      if (rows.length > 0)
        await client.query("DELETE FROM export_files WHERE job_id = ANY($1)", [rows.map((r) => r.id)]);
    });
  }

  async deleteFor(workspaceTag?: string) {
    if (workspaceTag === undefined) await this.#pool.query("DELETE FROM export_jobs");
    else await this.#pool.query("DELETE FROM export_jobs WHERE workspace_tag = $1", [workspaceTag]);
  }
}
