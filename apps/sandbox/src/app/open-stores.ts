import { openApiKeyStores } from "../api-keys/index.js";
import { openApprovalStores } from "../approval-workflow/index.js";
import { openClockStores } from "../clock/index.js";
import { openSessionStores } from "../dashboard-sessions/index.js";
import { openExportStores } from "../exports/index.js";
import { openGatewayStores } from "../gateway/index.js";
import { DEFAULT_MEMORY_MAX_PAYMENTS } from "../infrastructure/config/config.js";
import type { StoreBackend } from "../infrastructure/features/store-backend.js";
import { openPool } from "../infrastructure/postgres/pool.js";
import { databaseProblem } from "../infrastructure/postgres/readiness.js";
import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";
import { openMailStores } from "../mail/index.js";
import { openPaymentsStores } from "../payments/index.js";
import { openReconciliationStores } from "../reconciliation/index.js";
import { openScheduleStores } from "../scheduled-reports/index.js";
import { openSettlementStores } from "../settlement/index.js";
import type { FeatureStores, SandboxStores } from "./sandbox-stores.js";

/**
 * Every feature's stores on one backend. Each feature opens its own; the order is only that of what
 * builds on what (exports on mail's outbox, schedules on both, the ledger on settlement's switch,
 * reconciliation on the ledger).
 */
function openFeatureStores(backend: StoreBackend): FeatureStores {
  const mail = openMailStores(backend, {});
  const exports = openExportStores(backend, mail);
  const settlement = openSettlementStores(backend, {});
  const payments = openPaymentsStores(backend, settlement);
  return {
    ...mail,
    ...exports,
    ...openScheduleStores(backend, { ...mail, ...exports }),
    ...settlement,
    ...payments,
    ...openReconciliationStores(backend, payments),
    ...openApprovalStores(backend, {}),
    ...openGatewayStores(backend, {}),
    ...openClockStores(backend, {}),
    ...openSessionStores(backend, {}),
    ...openApiKeyStores(backend, {}),
  };
}

/**
 * The in-memory stores: per process, gone on restart. The default. `maxPayments`: the most payments
 * kept, every workspace together (PAYSPEC_MEMORY_MAX_PAYMENTS).
 */
export function memoryStores({
  maxPayments = DEFAULT_MEMORY_MAX_PAYMENTS,
}: {
  readonly maxPayments?: number;
} = {}): SandboxStores {
  return {
    ...openFeatureStores({ kind: "memory", maxPayments }),
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
  return {
    ...openFeatureStores({ kind: "postgres", pool, storedWorkspaceId }),
    notReady: () => databaseProblem(pool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
