/**
 * Reconciliation: a bank statement matched to the workspace's settled payments by reference, amount
 * and currency (matched ones become `reconciled`), each run kept with its lines and a CSV report;
 * the statement reader, the runs' store, control routes and the Reconciliation pages.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type ReconciliationDeps, registerReconciliationControls } from "./reconciliation-controls.js";
import { registerReconciliationPages } from "./reconciliation-pages.js";

export { openReconciliationStores, type ReconciliationStores } from "./open-reconciliation-stores.js";
export type { ReconciliationStore } from "./reconciliation-store.js";
export type { CsvMapping } from "./statement-formats/bank-csv.js";

export function reconciliationFeature(deps: ReconciliationDeps): SandboxFeature {
  return {
    name: "reconciliation",
    controlRoutes: (control, ctx) => registerReconciliationControls(control, deps, ctx),
    dashboardPages: registerReconciliationPages,
    resetWorkspace: async (apiKey) => {
      await deps.reconciliation.deleteFor(apiKey);
      await deps.statementMappings.clear(apiKey);
    },
    reset: async () => {
      await deps.reconciliation.deleteFor();
      await deps.statementMappings.clear();
    },
  };
}
