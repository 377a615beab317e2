import { apiKeysDeclaration } from "../api-keys/index.js";
import { approvalWorkflowDeclaration } from "../approval-workflow/index.js";
import { clockDeclaration } from "../clock/index.js";
import { dashboardSessionsDeclaration } from "../dashboard-sessions/index.js";
import { exportsDeclaration } from "../exports/index.js";
import { faultsDeclaration } from "../faults/index.js";
import { gatewayApiDeclaration, gatewayDeclaration } from "../gateway/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import { mailDeclaration } from "../mail/index.js";
import { operationsDeclaration } from "../operations/index.js";
import { paymentsApiDeclaration, paymentsDeclaration } from "../payments/index.js";
import { reconciliationDeclaration } from "../reconciliation/index.js";
import { requestLogDeclaration } from "../request-log/index.js";
import { scheduledReportsDeclaration } from "../scheduled-reports/index.js";
import { settingsDeclaration } from "../settings/index.js";
import { settlementDeclaration } from "../settlement/index.js";

/**
 * The sandbox is this list. Each feature declares what it needs; they are built in this order where
 * their needs allow (composeFeatures), and the dashboard's navigation follows it.
 */
// biome-ignore lint/suspicious/noExplicitAny: features provide values of every kind
export const SANDBOX_FEATURES: readonly FeatureDeclaration<any, any>[] = [
  clockDeclaration,
  paymentsDeclaration,
  approvalWorkflowDeclaration,
  settlementDeclaration,
  apiKeysDeclaration,
  dashboardSessionsDeclaration,
  mailDeclaration,
  exportsDeclaration,
  scheduledReportsDeclaration,
  reconciliationDeclaration,
  requestLogDeclaration,
  faultsDeclaration,
  gatewayDeclaration,
  // Last of the pages: it shows the switches of the features above.
  settingsDeclaration,
  paymentsApiDeclaration,
  gatewayApiDeclaration,
  operationsDeclaration,
];
