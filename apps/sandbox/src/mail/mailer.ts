import type { LoopStatus } from "../infrastructure/background/polling-loop.js";
import { inLocale, type Locale } from "../infrastructure/i18n/locale.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import { composeMessage, type Letter } from "./compose.js";
import type { OutboxMessage, OutboxStore } from "./outbox-store.js";
import { SmtpDelivery } from "./smtp-delivery.js";

export interface MailerOptions {
  readonly smtpUrl?: string;
  readonly from: string;
  readonly retryMs: number;
  /** The language each workspace's e-mails are written in. */
  readonly language: WorkspaceSetting<Locale>;
}

/**
 * The sandbox's e-mail: every message goes to the workspace's outbox (shown in the dashboard, like a
 * mail catcher), and, with an SMTP server configured, is delivered there too.
 */
export class Mailer {
  readonly outbox: OutboxStore;
  readonly from: string;
  readonly language: WorkspaceSetting<Locale>;
  readonly #delivery: SmtpDelivery | undefined;

  constructor(outbox: OutboxStore, options: MailerOptions) {
    this.outbox = outbox;
    this.from = options.from;
    this.language = options.language;
    this.#delivery = options.smtpUrl
      ? new SmtpDelivery(outbox, { smtpUrl: options.smtpUrl, from: options.from, retryMs: options.retryMs })
      : undefined;
  }

  /** Runs `write` (a letter and the files it carries) in the language of the workspace's e-mails. */
  async inLanguageOf<T>(workspace: string, write: () => Promise<T>): Promise<T> {
    return inLocale(await this.language.get(workspace), write);
  }

  /** A message for the outbox, not yet kept: for a caller that keeps it with other changes at once. */
  compose(workspaceTag: string, letter: Letter): OutboxMessage {
    return composeMessage(workspaceTag, letter, Date.now(), this.#delivery !== undefined);
  }

  async send(workspaceTag: string, letter: Letter): Promise<OutboxMessage> {
    const message = this.compose(workspaceTag, letter);
    await this.outbox.add(message);
    this.kept();
    return message;
  }

  /** A composed message was kept: deliver it without waiting for the next poll. */
  kept(): void {
    this.#delivery?.wake();
  }

  /** The SMTP delivery's loop, when mail is sent (none when it is only kept). */
  loopStatus(): readonly LoopStatus[] {
    return this.#delivery ? [this.#delivery.loopStatus()] : [];
  }

  start(): void {
    this.#delivery?.start();
  }

  async stop(): Promise<void> {
    await this.#delivery?.stop();
  }
}
