import nodemailer, { type Transporter } from "nodemailer";
import { BackgroundWork } from "../infrastructure/background/background-work.js";
import type { OutboxMessage, OutboxStore } from "./outbox-store.js";

/** Attempts before a message is given up as failed: with a 1 s first retry, about a minute of trying. */
export const MAX_ATTEMPTS = 6;
/** A claimed message is another instance's to retry if this one has not recorded an outcome by then. */
const LEASE_MS = 60_000;
const POLL_MS = 200;

export interface SmtpDeliveryOptions {
  readonly smtpUrl: string;
  readonly from: string;
  readonly retryMs: number;
}

/**
 * Sends the outbox's queued messages to the SMTP server, retrying a failure with exponential backoff
 * and recording every outcome on the message, so the Outbox shows what happened and nothing is lost
 * silently. Any instance may send any message; a lease keeps two from sending one at once.
 */
export class SmtpDelivery extends BackgroundWork {
  readonly #outbox: OutboxStore;
  readonly #options: SmtpDeliveryOptions;
  readonly #transport: Transporter;

  constructor(outbox: OutboxStore, options: SmtpDeliveryOptions) {
    super("mail", POLL_MS);
    this.#outbox = outbox;
    this.#options = options;
    // Short timeouts: an unreachable server is a failed attempt to retry, not a hung worker.
    this.#transport = nodemailer.createTransport(options.smtpUrl, {
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    } as never);
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.#transport.close();
  }

  protected async runOnce(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const due = await this.#outbox.claimDue(now, now + LEASE_MS, 10);
      if (due.length === 0 || this.loop.stopped) return;
      for (const message of due) await this.#deliver(message);
    }
  }

  async #deliver(message: OutboxMessage): Promise<void> {
    const attempts = ("attempts" in message.delivery ? message.delivery.attempts : 0) + 1;
    try {
      await this.#transport.sendMail({
        from: this.#options.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.id}@payspec.sandbox>`,
        attachments: message.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
      await this.#outbox.setDelivery(message.id, { state: "sent", attempts, sentAt: Date.now() });
    } catch (error) {
      // The server's answer says why (a 4xx/5xx reply, a refused connection); it holds no card data.
      const lastError = smtpProblem(error);
      await this.#outbox.setDelivery(
        message.id,
        attempts >= MAX_ATTEMPTS
          ? { state: "failed", attempts, lastError }
          : {
              state: "retrying",
              attempts,
              lastError,
              nextAttemptAt: Date.now() + this.#options.retryMs * 2 ** (attempts - 1),
            },
      );
    }
  }
}

function smtpProblem(error: unknown): string {
  const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string };
  const reason = (message ?? String(error)).split("\n")[0]?.slice(0, 300) ?? "";
  return [code, responseCode, reason].filter(Boolean).join(" ");
}
