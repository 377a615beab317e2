import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { OutboxStore } from "../mail/index.js";
import type { ExportJobStore } from "./export-job-store.js";
import { MemoryExportJobStore } from "./memory-export-job-store.js";
import { PostgresExportJobStore } from "./postgres-export-job-store.js";

export interface ExportStores {
  readonly exportJobs: ExportJobStore;
}

/** A finished export's e-mail is queued in the same transaction as the file: the outbox comes in. */
export const openExportStores: OpenStores<ExportStores, { readonly outbox: OutboxStore }> = (backend, { outbox }) => ({
  exportJobs:
    backend.kind === "memory" ? new MemoryExportJobStore(outbox) : new PostgresExportJobStore(backend.pool, outbox),
});
