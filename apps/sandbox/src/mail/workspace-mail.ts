import { ApiFailure, parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import { t } from "../infrastructure/i18n/locale.js";
import { seedWorkspace } from "../payments/index.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import { letterLinks } from "./compose.js";
import type { Mailer } from "./mailer.js";
import type { OutboxMessage } from "./outbox-store.js";
import { parseRecipients } from "./recipients.js";

const recipientsBody = z.object({ body: z.strictObject({ recipients: z.array(z.unknown()).max(100) }) });

/** An outbox message as the control API shows it (`withContent`: attachments' bytes in base64). */
export function messageToApi(message: OutboxMessage, withContent = false) {
  const { delivery } = message;
  return {
    id: message.id,
    created_at: new Date(message.createdAt).toISOString(),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    links: letterLinks(message.text),
    attachments: message.attachments.map((a) => ({
      filename: a.filename,
      content_type: a.contentType,
      size: a.content.length,
      ...(withContent ? { content_base64: a.content.toString("base64") } : {}),
    })),
    delivery: {
      state: delivery.state,
      ...("attempts" in delivery ? { attempts: delivery.attempts } : {}),
      ...("lastError" in delivery && delivery.lastError ? { last_error: delivery.lastError } : {}),
      ...("nextAttemptAt" in delivery ? { next_attempt_at: new Date(delivery.nextAttemptAt).toISOString() } : {}),
      ...("sentAt" in delivery ? { sent_at: new Date(delivery.sentAt).toISOString() } : {}),
    },
  };
}

export type MessageView = ReturnType<typeof messageToApi>;

/**
 * A workspace's mail, typed, for both its callers: the control API (which renders an ApiFailure in
 * its error shape) and the Outbox and Reports pages (which show its message beside the box). One set
 * of rules and messages.
 */
export class WorkspaceMail {
  readonly #mailer: Mailer;
  readonly #recipients: WorkspaceSetting<readonly string[]>;

  constructor(mailer: Mailer, recipients: WorkspaceSetting<readonly string[]>) {
    this.#mailer = mailer;
    this.#recipients = recipients;
  }

  /** The newest 100 e-mails of the workspace. */
  async messages(workspace: string): Promise<MessageView[]> {
    return (await this.#mailer.outbox.list(workspaceTag(workspace), 100)).map((m) => messageToApi(m));
  }

  /** One e-mail with its attachments' bytes, or the 404 ApiFailure. */
  async message(workspace: string, id: string): Promise<MessageView> {
    const message = await this.#mailer.outbox.get(workspaceTag(workspace), id);
    if (!message) {
      throw new ApiFailure("not_found", "No e-mail with that id in this workspace's outbox.", { param: "id" });
    }
    return messageToApi(message, true);
  }

  recipients(workspace: string): Promise<readonly string[]> {
    return this.#recipients.get(workspace);
  }

  /** Replaces the report recipients with `input` (`{recipients: [...]}`), or throws the ApiFailure that says what is wrong. */
  async saveRecipients(workspace: string, input: unknown): Promise<readonly string[]> {
    const { body } = parseRequest(recipientsBody, { body: input });
    const parsed = parseRecipients(body.recipients);
    if ("problem" in parsed) throw new ApiFailure("invalid_request", parsed.problem, { param: "recipients" });
    await this.#recipients.set(workspace, parsed.recipients);
    return parsed.recipients;
  }

  /** A test e-mail to the report recipients (409 when there are none), in the workspace's mail language. */
  async sendTest(workspace: string): Promise<MessageView> {
    const recipients = await this.#recipients.get(workspace);
    if (recipients.length === 0) {
      throw new ApiFailure(
        "invalid_request",
        "This workspace has no report recipients: set them first (PUT /_sandbox/settings/report-recipients).",
        { status: 409, param: "recipients" },
      );
    }
    const accounts = seedWorkspace(workspace).accounts.map((a) => `${a.name} (${a.id}, ${a.currency})`);
    const message = await this.#mailer.inLanguageOf(workspace, () =>
      this.#mailer.send(workspaceTag(workspace), {
        to: recipients,
        subject: t("payspec sandbox: test e-mail — ş ğ ı İ", "payspec sandbox: deneme e-postası — ş ğ ı İ"),
        text: t(
          `This is a test e-mail from your payspec sandbox workspace. Its reports will reach these recipients.\n\nAccounts:\n${accounts.join("\n")}`,
          `Bu, payspec sandbox çalışma alanınızdan gönderilen bir deneme e-postasıdır. Raporları bu alıcılara ulaşacak.\n\nHesaplar:\n${accounts.join("\n")}`,
        ),
      }),
    );
    return messageToApi(message);
  }
}
