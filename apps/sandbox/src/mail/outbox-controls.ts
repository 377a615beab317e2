import { parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import { LOCALES } from "../infrastructure/i18n/locale.js";
import type { Mailer } from "./mailer.js";
import type { WorkspaceMail } from "./workspace-mail.js";

const languageBody = z.object({ body: z.strictObject({ language: z.enum(LOCALES) }) });

/**
 * The outbox and the workspace's report recipients on the control API: what the dashboard's Outbox
 * and Settings → Reports pages do, scriptable in tests.
 */
export function registerOutboxControls(
  control: FastifyInstance,
  { mailer, mail }: { readonly mailer: Mailer; readonly mail: WorkspaceMail },
  { workspaceOf }: ControlContext,
): void {
  control.get("/_sandbox/settings/report-recipients", async (request) => ({
    recipients: await mail.recipients(workspaceOf(request, "Report recipients")),
  }));

  control.put("/_sandbox/settings/report-recipients", async (request) => ({
    recipients: await mail.saveRecipients(workspaceOf(request, "Report recipients"), request.body),
  }));

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
    const message = await mail.sendTest(workspaceOf(request, "A test e-mail"));
    reply.code(201);
    return message;
  });

  control.get("/_sandbox/outbox", async (request) => ({
    data: await mail.messages(workspaceOf(request, "The outbox")),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/outbox/:id", async (request) =>
    mail.message(workspaceOf(request, "The outbox"), request.params.id),
  );
}
