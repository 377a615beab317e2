import { ApiFailure, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import { LOCALES, t } from "../infrastructure/i18n/locale.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { workspaceTag } from "../infrastructure/workspaces/workspace-tag.js";
import { seedWorkspace } from "../payments/index.js";
import { letterLinks } from "./compose.js";
import type { Mailer } from "./mailer.js";
import type { OutboxMessage } from "./outbox-store.js";
import { parseRecipients } from "./recipients.js";

const recipientsBody = z.object({ body: z.strictObject({ recipients: z.array(z.unknown()).max(100) }) });
const languageBody = z.object({ body: z.strictObject({ language: z.enum(LOCALES) }) });

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

/**
 * The outbox and the workspace's report recipients on the control API: what the dashboard's Outbox
 * and Settings → Reports pages do, scriptable in tests.
 */
export function registerOutboxControls(
  control: FastifyInstance,
  {
    mailer,
    recipients: reportRecipients,
  }: { readonly mailer: Mailer; readonly recipients: WorkspaceSetting<readonly string[]> },
  { workspaceOf }: ControlContext,
): void {
  control.get("/_sandbox/settings/report-recipients", async (request) => ({
    recipients: await reportRecipients.get(workspaceOf(request, "Report recipients")),
  }));

  control.put("/_sandbox/settings/report-recipients", async (request) => {
    const key = workspaceOf(request, "Report recipients");
    const { body } = parseRequest(recipientsBody, { body: request.body });
    const parsed = parseRecipients(body.recipients);
    if ("problem" in parsed) throw new ApiFailure("invalid_request", parsed.problem, { param: "recipients" });
    await reportRecipients.set(key, parsed.recipients);
    return { recipients: parsed.recipients };
  });

  control.get("/_sandbox/settings/mail-language", async (request) => ({
    language: await mailer.language.get(workspaceOf(request, "The e-mail language")),
  }));

  control.put("/_sandbox/settings/mail-language", async (request) => {
    const key = workspaceOf(request, "The e-mail language");
    const { body } = parseRequest(languageBody, { body: request.body });
    await mailer.language.set(key, body.language);
    return { language: body.language };
  });

  control.post("/_sandbox/outbox/test", async (request, reply) => {
    const key = workspaceOf(request, "A test e-mail");
    const recipients = await reportRecipients.get(key);
    if (recipients.length === 0) {
      throw new ApiFailure(
        "invalid_request",
        "This workspace has no report recipients: set them first (PUT /_sandbox/settings/report-recipients).",
        { status: 409, param: "recipients" },
      );
    }
    const accounts = seedWorkspace(key).accounts.map((a) => `${a.name} (${a.id}, ${a.currency})`);
    const message = await mailer.inLanguageOf(key, () =>
      mailer.send(workspaceTag(key), {
        to: recipients,
        subject: t("payspec sandbox: test e-mail — ş ğ ı İ", "payspec sandbox: deneme e-postası — ş ğ ı İ"),
        text: t(
          `This is a test e-mail from your payspec sandbox workspace. Its reports will reach these recipients.\n\nAccounts:\n${accounts.join("\n")}`,
          `Bu, payspec sandbox çalışma alanınızdan gönderilen bir deneme e-postasıdır. Raporları bu alıcılara ulaşacak.\n\nHesaplar:\n${accounts.join("\n")}`,
        ),
      }),
    );
    reply.code(201);
    return messageToApi(message);
  });

  control.get("/_sandbox/outbox", async (request) => ({
    data: (await mailer.outbox.list(workspaceTag(workspaceOf(request, "The outbox")), 100)).map((m) => messageToApi(m)),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/outbox/:id", async (request) => {
    const tag = workspaceTag(workspaceOf(request, "The outbox"));
    const message = await mailer.outbox.get(tag, request.params.id);
    if (!message)
      throw new ApiFailure("not_found", "No e-mail with that id in this workspace's outbox.", { param: "id" });
    return messageToApi(message, true);
  });
}
