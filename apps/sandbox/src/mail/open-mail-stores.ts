import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { Locale } from "../infrastructure/i18n/locale.js";
import { openWorkspaceSetting, type WorkspaceSetting } from "../workspaces/index.js";
import { MAIL_LANGUAGE } from "./mail-language-setting.js";
import { MemoryOutboxStore } from "./memory-outbox-store.js";
import type { OutboxStore } from "./outbox-store.js";
import { PostgresOutboxStore } from "./postgres-outbox-store.js";
import { REPORT_RECIPIENTS } from "./report-recipients-setting.js";

export interface MailStores {
  readonly outbox: OutboxStore;
  /** Who receives the workspace's reports by e-mail; empty until set. */
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  /** The language of the workspace's e-mails and the reports they carry (English until chosen). */
  readonly mailLanguage: WorkspaceSetting<Locale>;
}

export const openMailStores: OpenStores<MailStores> = (backend) => ({
  outbox: backend.kind === "memory" ? new MemoryOutboxStore() : new PostgresOutboxStore(backend.pool),
  reportRecipients: openWorkspaceSetting(backend, REPORT_RECIPIENTS),
  mailLanguage: openWorkspaceSetting(backend, MAIL_LANGUAGE),
});
