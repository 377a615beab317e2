import type { ExportJobStore } from "../exports/index.js";
import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { OutboxStore } from "../mail/index.js";
import { MemoryScheduleStore } from "./memory-schedule-store.js";
import { PostgresScheduleStore } from "./postgres-schedule-store.js";
import type { ScheduleStore } from "./schedule-store.js";

export interface ScheduleStores {
  readonly schedules: ScheduleStore;
}

/** A report falls due and is mailed (or queued as an export) in one transaction: both stores come in. */
export const openScheduleStores: OpenStores<
  ScheduleStores,
  { readonly outbox: OutboxStore; readonly exportJobs: ExportJobStore }
> = (backend, { outbox, exportJobs }) => ({
  schedules:
    backend.kind === "memory"
      ? new MemoryScheduleStore(outbox, exportJobs)
      : new PostgresScheduleStore(backend.pool, outbox, exportJobs),
});
