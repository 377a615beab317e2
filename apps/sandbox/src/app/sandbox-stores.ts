import type { ApiKeyStore } from "../api-keys/index.js";
import type { ClockStore } from "../clock/index.js";
import type { SessionStore } from "../dashboard-sessions/index.js";
import type { ExportJobStore } from "../exports/index.js";
import type { GatewayStore } from "../gateway/index.js";
import type { Locale } from "../infrastructure/i18n/locale.js";
import type { PoolStats } from "../infrastructure/metrics/sandbox-metrics.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import type { OutboxStore } from "../mail/index.js";
import type { PaymentsStore } from "../payments/index.js";
import type { CsvMapping, ReconciliationStore } from "../reconciliation/index.js";
import type { ScheduleStore } from "../scheduled-reports/index.js";

/** Everything the sandbox keeps, from one place: in memory, or in one PostgreSQL database. */
export interface SandboxStores {
  readonly payments: PaymentsStore;
  /** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  /** Whether a payment must be approved with another API key than its submitter's (off in a fresh workspace). */
  readonly fourEyes: WorkspaceSetting<boolean>;
  /** Whether completed payments settle by themselves at the daily cut-off (on in a fresh workspace). */
  readonly autoSettlement: WorkspaceSetting<boolean>;
  /** Who receives the workspace's reports by e-mail; empty until set. */
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  /** The language of the workspace's e-mails and the reports they carry (English until chosen). */
  readonly mailLanguage: WorkspaceSetting<Locale>;
  readonly reconciliation: ReconciliationStore;
  /** The workspace's own bank CSV layouts for statements (none until added). */
  readonly statementMappings: WorkspaceSetting<readonly CsvMapping[]>;
  readonly gateway: GatewayStore;
  readonly clocks: ClockStore;
  readonly sessions: SessionStore;
  readonly apiKeys: ApiKeyStore;
  readonly outbox: OutboxStore;
  readonly exportJobs: ExportJobStore;
  readonly schedules: ScheduleStore;
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
