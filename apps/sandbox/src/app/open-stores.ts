import { MemoryApiKeyStore, PostgresApiKeyStore } from "../api-keys/index.js";
import { APPROVAL_FOUR_EYES, APPROVAL_WORKFLOW } from "../approval-workflow/index.js";
import { HashedScopesClockStore, MemoryClockStore, PostgresClockStore } from "../clock/index.js";
import { MemorySessionStore, PostgresSessionStore } from "../dashboard-sessions/index.js";
import { MemoryExportJobStore, PostgresExportJobStore } from "../exports/index.js";
import { MemoryGatewayStore, PostgresGatewayStore } from "../gateway/index.js";
import { DEFAULT_MEMORY_MAX_PAYMENTS } from "../infrastructure/config/config.js";
import { openPool } from "../infrastructure/postgres/pool.js";
import { databaseProblem } from "../infrastructure/postgres/readiness.js";
import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import {
  MemoryWorkspaceSetting,
  PostgresWorkspaceSetting,
} from "../infrastructure/workspace-settings/workspace-setting.js";
import { MAIL_LANGUAGE, MemoryOutboxStore, PostgresOutboxStore, REPORT_RECIPIENTS } from "../mail/index.js";
import { HashedWorkspacesStore, MemoryPaymentsStore, PostgresPaymentsStore } from "../payments/index.js";
import { MemoryReconciliationStore, PostgresReconciliationStore, STATEMENT_MAPPINGS } from "../reconciliation/index.js";
import { MemoryScheduleStore, PostgresScheduleStore } from "../scheduled-reports/index.js";
import { AUTO_SETTLEMENT } from "../settlement/index.js";
import type { SandboxStores } from "./sandbox-stores.js";

/**
 * The in-memory stores: per process, gone on restart. The default. `maxPayments`: the most payments
 * kept, every workspace together (PAYSPEC_MEMORY_MAX_PAYMENTS).
 */
export function memoryStores({
  maxPayments = DEFAULT_MEMORY_MAX_PAYMENTS,
}: {
  readonly maxPayments?: number;
} = {}): SandboxStores {
  const outbox = new MemoryOutboxStore();
  const exportJobs = new MemoryExportJobStore(outbox);
  const autoSettlement = new MemoryWorkspaceSetting(AUTO_SETTLEMENT);
  const payments = new MemoryPaymentsStore(autoSettlement, { maxPayments });
  return {
    payments,
    approvalWorkflow: new MemoryWorkspaceSetting(APPROVAL_WORKFLOW),
    fourEyes: new MemoryWorkspaceSetting(APPROVAL_FOUR_EYES),
    autoSettlement,
    reportRecipients: new MemoryWorkspaceSetting(REPORT_RECIPIENTS),
    mailLanguage: new MemoryWorkspaceSetting(MAIL_LANGUAGE),
    reconciliation: new MemoryReconciliationStore(payments),
    statementMappings: new MemoryWorkspaceSetting(STATEMENT_MAPPINGS),
    gateway: new MemoryGatewayStore(),
    clocks: new MemoryClockStore(),
    sessions: new MemorySessionStore(),
    apiKeys: new MemoryApiKeyStore(),
    outbox,
    exportJobs,
    schedules: new MemoryScheduleStore(outbox, exportJobs),
    notReady: async () => undefined,
    close: async () => undefined,
  };
}

export interface PostgresStoresOptions {
  /**
   * How API keys are kept: a keyed hash (the sandbox derives one from PAYSPEC_SANDBOX_SECRET). Every
   * instance on the database must use the same.
   */
  readonly storedWorkspaceId: StoredWorkspaceId;
  readonly poolSize?: number;
}

/**
 * The PostgreSQL stores on `databaseUrl`, its schema brought up to date first. Several instances may
 * open the same database at once.
 */
export async function postgresStores(
  databaseUrl: string,
  { storedWorkspaceId, poolSize }: PostgresStoresOptions,
): Promise<SandboxStores> {
  const pool = await openPool(databaseUrl, poolSize, storedWorkspaceId);
  const payments = new HashedWorkspacesStore(new PostgresPaymentsStore(pool), storedWorkspaceId);
  const outbox = new PostgresOutboxStore(pool);
  const exportJobs = new PostgresExportJobStore(pool, outbox);
  return {
    payments,
    approvalWorkflow: new PostgresWorkspaceSetting(pool, APPROVAL_WORKFLOW, storedWorkspaceId),
    fourEyes: new PostgresWorkspaceSetting(pool, APPROVAL_FOUR_EYES, storedWorkspaceId),
    autoSettlement: new PostgresWorkspaceSetting(pool, AUTO_SETTLEMENT, storedWorkspaceId),
    reportRecipients: new PostgresWorkspaceSetting(pool, REPORT_RECIPIENTS, storedWorkspaceId),
    mailLanguage: new PostgresWorkspaceSetting(pool, MAIL_LANGUAGE, storedWorkspaceId),
    reconciliation: new PostgresReconciliationStore(pool, storedWorkspaceId, payments),
    statementMappings: new PostgresWorkspaceSetting(pool, STATEMENT_MAPPINGS, storedWorkspaceId),
    gateway: new PostgresGatewayStore(pool),
    clocks: new HashedScopesClockStore(new PostgresClockStore(pool), storedWorkspaceId),
    sessions: new PostgresSessionStore(pool),
    apiKeys: new PostgresApiKeyStore(pool),
    outbox,
    exportJobs,
    schedules: new PostgresScheduleStore(pool, outbox, exportJobs),
    notReady: () => databaseProblem(pool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
