import type { ExportJob, ExportJobStore } from "../exports/index.js";
import type { OutboxMessage, OutboxStore } from "../mail/index.js";
import type { ReportSchedule, ScheduleDelivery, ScheduleStore } from "./schedule-store.js";

/** Deliveries kept per schedule in memory, newest kept. */
const KEPT_DELIVERIES = 500;

/** Report schedules of one process; deliveries write to the same process's outbox and exports. */
export class MemoryScheduleStore implements ScheduleStore {
  readonly #schedules = new Map<string, ReportSchedule>();
  readonly #deliveries = new Map<string, ScheduleDelivery[]>();
  readonly #outbox: OutboxStore;
  readonly #exports: ExportJobStore;

  constructor(outbox: OutboxStore, exports: ExportJobStore) {
    this.#outbox = outbox;
    this.#exports = exports;
  }

  async add(schedule: ReportSchedule) {
    this.#schedules.set(schedule.id, schedule);
  }

  async list(workspaceTag: string) {
    return [...this.#schedules.values()].filter((s) => s.workspaceTag === workspaceTag);
  }

  async get(workspaceTag: string, id: string) {
    const schedule = this.#schedules.get(id);
    return schedule?.workspaceTag === workspaceTag ? schedule : undefined;
  }

  async replace(schedule: ReportSchedule) {
    if (!(await this.get(schedule.workspaceTag, schedule.id))) return false;
    this.#schedules.set(schedule.id, schedule);
    return true;
  }

  async remove(workspaceTag: string, id: string) {
    if (!(await this.get(workspaceTag, id))) return false;
    this.#schedules.delete(id);
    this.#deliveries.delete(id);
    return true;
  }

  async due(workspaceTag: string, now: number) {
    return (await this.list(workspaceTag)).filter((s) => !s.paused && s.nextDueAt <= now);
  }

  async deliver(
    schedule: ReportSchedule,
    nextDueAt: number,
    deliveries: readonly ScheduleDelivery[],
    mail?: OutboxMessage,
    linked?: { readonly job: ExportJob; readonly file: Buffer },
  ) {
    const current = this.#schedules.get(schedule.id);
    if (!current || current.paused || current.nextDueAt !== schedule.nextDueAt) return false;
    this.#schedules.set(schedule.id, { ...current, nextDueAt });
    const kept = [...(this.#deliveries.get(schedule.id) ?? []), ...deliveries];
    this.#deliveries.set(schedule.id, kept.slice(-KEPT_DELIVERIES));
    if (linked) await this.#exports.addReady(linked.job, linked.file);
    if (mail) await this.#outbox.add(mail);
    return true;
  }

  async deliveries(workspaceTag: string, scheduleId: string, limit: number) {
    if (!(await this.get(workspaceTag, scheduleId))) return [];
    return [...(this.#deliveries.get(scheduleId) ?? [])].reverse().slice(0, limit);
  }

  async deleteFor(workspaceTag?: string) {
    for (const [id, schedule] of this.#schedules) {
      if (workspaceTag === undefined || schedule.workspaceTag === workspaceTag) {
        this.#schedules.delete(id);
        this.#deliveries.delete(id);
      }
    }
  }
}
