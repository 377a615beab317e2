import type { ApiKeyStores } from "../api-keys/index.js";
import type { ApprovalStores } from "../approval-workflow/index.js";
import type { ClockStores } from "../clock/index.js";
import type { SessionStores } from "../dashboard-sessions/index.js";
import type { ExportStores } from "../exports/index.js";
import type { GatewayStores } from "../gateway/index.js";
import type { PoolStats } from "../infrastructure/metrics/sandbox-metrics.js";
import type { MailStores } from "../mail/index.js";
import type { PaymentsStores } from "../payments/index.js";
import type { ReconciliationStores } from "../reconciliation/index.js";
import type { ScheduleStores } from "../scheduled-reports/index.js";
import type { SettlementStores } from "../settlement/index.js";

/** What every feature keeps, each feature's part described (and opened) in its own folder. */
export type FeatureStores = PaymentsStores &
  SettlementStores &
  ApprovalStores &
  MailStores &
  ExportStores &
  ScheduleStores &
  ReconciliationStores &
  GatewayStores &
  ClockStores &
  SessionStores &
  ApiKeyStores;

/** Everything the sandbox keeps, from one place: in memory, or in one PostgreSQL database. */
export interface SandboxStores extends FeatureStores {
  /**
   * Why the stores cannot serve now (the database does not answer, or its schema is not this
   * version's), or undefined when they can: `/readyz`.
   */
  notReady(): Promise<string | undefined>;
  /** The database pool's connections, when the state is in PostgreSQL: `/metrics`. */
  readonly poolStats?: () => PoolStats;
  /** Releases connections; the data stays where it is. */
  close(): Promise<void>;
}
