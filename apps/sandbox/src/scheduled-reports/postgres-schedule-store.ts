import type pg from "pg";
import type { ExportJob, ExportJobStore } from "../exports/index.js";
import { inTransaction } from "../infrastructure/postgres/transaction.js";
import type { OutboxMessage, OutboxStore } from "../mail/index.js";
import type { ReportSchedule, ScheduleDelivery, ScheduleStore } from "./schedule-store.js";

interface ScheduleRow {
  id: string;
  workspace_tag: string;
  name: string;
  format: "csv" | "pdf";
  filters: ReportSchedule["filters"];
  cadence: ReportSchedule["cadence"];
  recipients: string[];
  paused: boolean;
  created_at: string;
  next_due_at: string;
}

interface DeliveryRow {
  schedule_id: string;
  due_at: string;
  at: string;
  period_from: string;
  period_to: string;
  rows_in: number;
  outcome: ScheduleDelivery["outcome"];
  message_id: string | null;
  export_job_id: string | null;
  detail: string | null;
}

const COLUMNS = "id, workspace_tag, name, format, filters, cadence, recipients, paused, created_at, next_due_at";

function toSchedule(row: ScheduleRow): ReportSchedule {
  return {
    id: row.id,
    workspaceTag: row.workspace_tag,
    name: row.name,
    format: row.format,
    filters: row.filters,
    cadence: row.cadence,
    recipients: row.recipients,
    paused: row.paused,
    createdAt: Number(row.created_at),
    nextDueAt: Number(row.next_due_at),
  };
}

function toDelivery(row: DeliveryRow): ScheduleDelivery {
  return {
    scheduleId: row.schedule_id,
    dueAt: Number(row.due_at),
    at: Number(row.at),
    periodFrom: Number(row.period_from),
    periodTo: Number(row.period_to),
    rows: row.rows_in,
    outcome: row.outcome,
    ...(row.message_id === null ? {} : { messageId: row.message_id }),
    ...(row.export_job_id === null ? {} : { exportJobId: row.export_job_id }),
    ...(row.detail === null ? {} : { detail: row.detail }),
  };
}

const values = (s: ReportSchedule) => [
  s.id,
  s.workspaceTag,
  s.name,
  s.format,
  JSON.stringify(s.filters),
  JSON.stringify(s.cadence),
  JSON.stringify(s.recipients),
  s.paused,
  s.createdAt,
  s.nextDueAt,
];

/** Report schedules in PostgreSQL: every instance runs them, and each due time is delivered once. */
export class PostgresScheduleStore implements ScheduleStore {
  readonly #pool: pg.Pool;
  readonly #outbox: OutboxStore;
  readonly #exportJobs: ExportJobStore;

  /**
   * `outbox` and `exportJobs`: the mail and exports features' PostgreSQL stores on the same pool; a
   * delivery keeps its e-mail and linked export through them, in its own transaction.
   */
  constructor(pool: pg.Pool, outbox: OutboxStore, exportJobs: ExportJobStore) {
    this.#pool = pool;
    this.#outbox = outbox;
    this.#exportJobs = exportJobs;
  }

  async add(schedule: ReportSchedule) {
    await this.#pool.query(
      `INSERT INTO report_schedules (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      values(schedule),
    );
  }

  async list(workspaceTag: string) {
    const { rows } = await this.#pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM report_schedules WHERE workspace_tag = $1 ORDER BY position`,
      [workspaceTag],
    );
    return rows.map(toSchedule);
  }

  async get(workspaceTag: string, id: string) {
    const { rows } = await this.#pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM report_schedules WHERE workspace_tag = $1 AND id = $2`,
      [workspaceTag, id],
    );
    return rows[0] && toSchedule(rows[0]);
  }

  async replace(schedule: ReportSchedule) {
    const { rowCount } = await this.#pool.query(
      `UPDATE report_schedules SET name = $3, format = $4, filters = $5, cadence = $6, recipients = $7, paused = $8,
         next_due_at = $10
       WHERE id = $1 AND workspace_tag = $2 AND created_at = $9`,
      values(schedule),
    );
    return rowCount === 1;
  }

  async remove(workspaceTag: string, id: string) {
    const { rowCount } = await this.#pool.query("DELETE FROM report_schedules WHERE workspace_tag = $1 AND id = $2", [
      workspaceTag,
      id,
    ]);
    return rowCount === 1;
  }

  async due(workspaceTag: string, now: number) {
    const { rows } = await this.#pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM report_schedules WHERE workspace_tag = $1 AND NOT paused AND next_due_at <= $2 ORDER BY next_due_at`,
      [workspaceTag, now],
    );
    return rows.map(toSchedule);
  }

  async deliver(
    schedule: ReportSchedule,
    nextDueAt: number,
    deliveries: readonly ScheduleDelivery[],
    mail?: OutboxMessage,
    linked?: { readonly job: ExportJob; readonly file: Buffer },
  ) {
    return inTransaction(this.#pool, async (client) => {
      const { rowCount } = await client.query(
        "UPDATE report_schedules SET next_due_at = $3 WHERE id = $1 AND next_due_at = $2 AND NOT paused",
        [schedule.id, schedule.nextDueAt, nextDueAt],
      );
      if (rowCount !== 1) return false;
      for (const d of deliveries) {
        await client.query(
          `INSERT INTO schedule_deliveries (schedule_id, due_at, at, period_from, period_to, rows_in, outcome, message_id, export_job_id, detail)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            d.scheduleId,
            d.dueAt,
            d.at,
            d.periodFrom,
            d.periodTo,
            d.rows,
            d.outcome,
            d.messageId ?? null,
            d.exportJobId ?? null,
            d.detail ?? null,
          ],
        );
      }
      if (linked) await this.#exportJobs.addReady(linked.job, linked.file, { sql: client });
      if (mail) await this.#outbox.add(mail, { sql: client });
      return true;
    });
  }

  async deliveries(workspaceTag: string, scheduleId: string, limit: number) {
    const { rows } = await this.#pool.query<DeliveryRow>(
      `SELECT d.* FROM schedule_deliveries d JOIN report_schedules s ON s.id = d.schedule_id
       WHERE s.workspace_tag = $1 AND d.schedule_id = $2 ORDER BY d.due_at DESC LIMIT $3`,
      [workspaceTag, scheduleId, limit],
    );
    return rows.map(toDelivery);
  }

  async deleteFor(workspaceTag?: string) {
    if (workspaceTag === undefined) await this.#pool.query("DELETE FROM report_schedules");
    else await this.#pool.query("DELETE FROM report_schedules WHERE workspace_tag = $1", [workspaceTag]);
  }
}
