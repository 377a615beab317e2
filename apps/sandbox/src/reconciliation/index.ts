/**
 * Reconciliation: a bank statement matched to the workspace's settled payments by reference, amount
 * and currency (matched ones become `reconciled`), each run kept with its lines and a CSV report;
 * the statement reader, the runs' store, control routes and the Reconciliation pages.
 */
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { paymentsDeclaration } from "../payments/index.js";
import type { ReconciliationStores } from "./open-reconciliation-stores.js";
import { registerReconciliationControls } from "./reconciliation-controls.js";
import { reconciliationPages } from "./reconciliation-pages.js";
import { type ReconciliationDeps, Reconciliations } from "./reconciliations.js";

export { openReconciliationStores, type ReconciliationStores } from "./open-reconciliation-stores.js";
export type { ReconciliationStore } from "./reconciliation-store.js";
export type { CsvMapping } from "./statement-formats/bank-csv.js";

export function reconciliationFeature(deps: ReconciliationDeps): SandboxFeature {
  const reconciliations = new Reconciliations(deps);
  return {
    name: "reconciliation",
    controlRoutes: (control, ctx) => registerReconciliationControls(control, reconciliations, ctx),
    dashboardPages: reconciliationPages(reconciliations),
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

export const reconciliationDeclaration: FeatureDeclaration<undefined, ReconciliationStores> = {
  name: "reconciliation",
  needs: [paymentsDeclaration, clockDeclaration],
  build: ({ stores, use }) => ({
    provides: undefined,
    feature: reconciliationFeature({
      reconciliation: stores.reconciliation,
      statementMappings: stores.statementMappings,
      clocks: use(clockDeclaration),
      elapsedTime: use(paymentsDeclaration).catchUp,
    }),
  }),
};
