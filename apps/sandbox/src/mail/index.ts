/**
 * Mail: the Mailer (every e-mail is kept in the workspace's outbox, and sent over SMTP when
 * PAYSPEC_SMTP_URL is set, with retries), the outbox store, the workspace's report recipients, and
 * their control routes and dashboard pages (Outbox, Settings → Reports).
 */
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import { Mailer } from "./mailer.js";
import type { MailStores } from "./open-mail-stores.js";
import { registerOutboxControls } from "./outbox-controls.js";
import { outboxPages } from "./outbox-pages.js";
import { WorkspaceMail } from "./workspace-mail.js";

export { letterLinks } from "./compose.js";
export { type MailStores, openMailStores } from "./open-mail-stores.js";
export type { MailAttachment, MailDelivery, OutboxMessage, OutboxStore } from "./outbox-store.js";
export { parseRecipients } from "./recipients.js";
export { Mailer };

export function mailFeature(deps: {
  readonly mailer: Mailer;
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
}): SandboxFeature {
  const { mailer, reportRecipients } = deps;
  const mail = new WorkspaceMail(mailer, reportRecipients);
  return {
    name: "mail",
    controlRoutes: (control, ctx) => registerOutboxControls(control, { mailer, mail }, ctx),
    dashboardPages: outboxPages({ ...deps, mail }),
    resetWorkspace: async (apiKey) => {
      await mailer.outbox.deleteFor(workspaceTag(apiKey));
      await reportRecipients.clear(apiKey);
      await mailer.language.clear(apiKey);
    },
    reset: async () => {
      await mailer.outbox.deleteFor();
      await reportRecipients.clear();
      await mailer.language.clear();
    },
    start: () => mailer.start(),
    stop: () => mailer.stop(),
    backgroundLoops: () => mailer.loopStatus(),
  };
}

/** The Mailer every feature that writes e-mail sends through (the outbox, and SMTP when configured). */
export const mailDeclaration: FeatureDeclaration<Mailer, MailStores> = {
  name: "mail",
  needs: [],
  build: ({ config, stores }) => {
    const mailer = new Mailer(stores.outbox, {
      language: stores.mailLanguage,
      from: config.mailFrom,
      retryMs: config.smtpRetryMs,
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
    });
    return { provides: mailer, feature: mailFeature({ mailer, reportRecipients: stores.reportRecipients }) };
  },
};
