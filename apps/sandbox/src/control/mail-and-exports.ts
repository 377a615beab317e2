import { ApiFailure, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ExportQueue } from "../exports/export-queue.js";
import { letterLinks } from "../mail/compose.js";
import type { Mailer } from "../mail/mailer.js";
import { parseRecipients } from "../mail/recipients.js";
import { listingFilterFields } from "../payments/filter-fields.js";
import { listingFilters } from "../payments/list-payments.js";
import { seedWorkspace, workspaceTag } from "../payments/seed.js";
import type { ReportSchedules } from "../scheduled-reports/report-schedules.js";
import type { ExportJob, OutboxMessage, PaymentsStore, ReportSchedule, ScheduleDelivery } from "../store/index.js";

export interface MailAndExportsDeps {
  readonly payments: PaymentsStore;
  readonly mailer: Mailer;
  readonly exports: ExportQueue;
  readonly schedules: ReportSchedules;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const exportRequest = z.object({
  body: z.strictObject({
    format: z.enum(["csv", "pdf"]),
    ...listingFilterFields,
    from: z.string().regex(DATE, "a date as YYYY-MM-DD").optional(),
    to: z.string().regex(DATE, "a date as YYYY-MM-DD").optional(),
  }),
});
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

/** A report schedule as the control API shows it. */
export function scheduleToApi(schedule: ReportSchedule) {
  return {
    id: schedule.id,
    name: schedule.name,
    format: schedule.format,
    ...schedule.filters,
    every: schedule.cadence.every,
    ...(schedule.cadence.weekday === undefined ? {} : { weekday: schedule.cadence.weekday }),
    time: schedule.cadence.time,
    recipients: schedule.recipients,
    paused: schedule.paused,
    next_due_at: new Date(schedule.nextDueAt).toISOString(),
  };
}

export function deliveryToApi(delivery: ScheduleDelivery) {
  return {
    due_at: new Date(delivery.dueAt).toISOString(),
    at: new Date(delivery.at).toISOString(),
    period_from: new Date(delivery.periodFrom).toISOString(),
    period_to: new Date(delivery.periodTo).toISOString(),
    rows: delivery.rows,
    outcome: delivery.outcome,
    ...(delivery.messageId ? { message_id: delivery.messageId } : {}),
    ...(delivery.exportJobId ? { export_id: delivery.exportJobId } : {}),
    ...(delivery.detail ? { detail: delivery.detail } : {}),
  };
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A queued export as the control API shows it; `download_url` while its link works. */
export function jobToApi(job: ExportJob, downloadUrl: string | undefined) {
  return {
    id: job.id,
    format: job.format,
    filters: listingFilters(job.listing),
    state: job.state,
    total: job.total,
    rows_written: job.rowsWritten,
    requested_at: iso(job.requestedAt),
    ...(job.readyAt === undefined ? {} : { ready_at: iso(job.readyAt) }),
    ...(job.expiresAt === undefined ? {} : { expires_at: iso(job.expiresAt) }),
    ...(job.bytes === undefined ? {} : { bytes: job.bytes }),
    ...(job.error === undefined ? {} : { error: job.error }),
    ...(downloadUrl ? { download_url: downloadUrl } : {}),
  };
}

/**
 * The outbox, report recipients and queued exports on the control API: what the dashboard's Outbox,
 * Settings → Reports and Exports pages do, scriptable in tests.
 */
export function registerMailAndExportControls(
  control: FastifyInstance,
  { payments, mailer, exports, schedules }: MailAndExportsDeps,
  workspaceOf: (request: FastifyRequest, what: string) => string,
): void {
  control.get("/_sandbox/settings/report-recipients", async (request) => ({
    recipients: await payments.reportRecipients(workspaceOf(request, "Report recipients")),
  }));

  control.put("/_sandbox/settings/report-recipients", async (request) => {
    const key = workspaceOf(request, "Report recipients");
    const { body } = parseRequest(recipientsBody, { body: request.body });
    const parsed = parseRecipients(body.recipients);
    if ("problem" in parsed) throw new ApiFailure("invalid_request", parsed.problem, { param: "recipients" });
    await payments.setReportRecipients(key, parsed.recipients);
    return { recipients: parsed.recipients };
  });

  control.post("/_sandbox/outbox/test", async (request, reply) => {
    const key = workspaceOf(request, "A test e-mail");
    const recipients = await payments.reportRecipients(key);
    if (recipients.length === 0) {
      throw new ApiFailure(
        "invalid_request",
        "This workspace has no report recipients: set them first (PUT /_sandbox/settings/report-recipients).",
        { status: 409, param: "recipients" },
      );
    }
    const accounts = seedWorkspace(key).accounts.map((a) => `${a.name} (${a.id}, ${a.currency})`);
    const message = await mailer.send(workspaceTag(key), {
      to: recipients,
      subject: "payspec sandbox: test e-mail — ş ğ ı İ",
      text: `This is a test e-mail from your payspec sandbox workspace. Its reports will reach these recipients.\n\nAccounts:\n${accounts.join("\n")}`,
    });
    return reply.code(201).send(messageToApi(message));
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

  control.post("/_sandbox/schedules", async (request, reply) => {
    const schedule = await schedules.create(workspaceOf(request, "A report schedule"), request.body);
    return reply.code(201).header("Location", `/_sandbox/schedules/${schedule.id}`).send(scheduleToApi(schedule));
  });

  control.get("/_sandbox/schedules", async (request) => ({
    data: (await schedules.list(workspaceOf(request, "Report schedules"))).map(scheduleToApi),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request) => {
    const key = workspaceOf(request, "A report schedule");
    const schedule = await schedules.get(key, request.params.id);
    return {
      ...scheduleToApi(schedule),
      deliveries: (await schedules.deliveries(key, schedule.id)).map(deliveryToApi),
    };
  });

  control.put<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request) =>
    scheduleToApi(await schedules.replace(workspaceOf(request, "A report schedule"), request.params.id, request.body)),
  );

  control.delete<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request, reply) => {
    await schedules.remove(workspaceOf(request, "A report schedule"), request.params.id);
    return reply.code(204).send();
  });

  control.post("/_sandbox/exports", async (request, reply) => {
    const key = workspaceOf(request, "An export");
    const { body } = parseRequest(exportRequest, { body: request.body });
    const { format, ...filters } = body;
    const job = await exports.request(key, format, filters);
    return reply.code(202).header("Location", `/_sandbox/exports/${job.id}`).send(jobToApi(job, undefined));
  });

  control.get("/_sandbox/exports", async (request) => ({
    data: (await exports.list(workspaceOf(request, "Exports"))).map((job) => jobToApi(job, exports.downloadUrl(job))),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/exports/:id", async (request) => {
    const job = await exports.get(workspaceOf(request, "Exports"), request.params.id);
    if (!job) throw new ApiFailure("not_found", "No export with that id in this workspace.", { param: "id" });
    return jobToApi(job, exports.downloadUrl(job));
  });
}
