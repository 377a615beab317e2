import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { PaymentsStore } from "../payments/index.js";
import { openWorkspaceSetting, type WorkspaceSetting } from "../workspaces/index.js";
import { MemoryReconciliationStore } from "./memory-reconciliation-store.js";
import { PostgresReconciliationStore } from "./postgres-reconciliation-store.js";
import type { ReconciliationStore } from "./reconciliation-store.js";
import type { CsvMapping } from "./statement-formats/bank-csv.js";
import { STATEMENT_MAPPINGS } from "./statement-mappings.js";

export interface ReconciliationStores {
  readonly reconciliation: ReconciliationStore;
  /** The workspace's own bank CSV layouts for statements (none until added). */
  readonly statementMappings: WorkspaceSetting<readonly CsvMapping[]>;
}

/** Statements are matched and marked through the payments ledger's own contract: it comes in. */
export const openReconciliationStores: OpenStores<ReconciliationStores, { readonly payments: PaymentsStore }> = (
  backend,
  { payments },
) => ({
  reconciliation:
    backend.kind === "memory"
      ? new MemoryReconciliationStore(payments)
      : new PostgresReconciliationStore(backend.pool, backend.storedWorkspaceId, payments),
  statementMappings: openWorkspaceSetting(backend, STATEMENT_MAPPINGS),
});
