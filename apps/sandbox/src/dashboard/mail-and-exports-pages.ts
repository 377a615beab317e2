import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { jobToApi, messageToApi } from "../control/mail-and-exports.js";
import { validDownloadSignature } from "../exports/download-link.js";
import { workspaceTag } from "../payments/seed.js";
import type { DashboardContext } from "./context.js";
import { formField, typedAgain } from "./form-fields.js";
import { html, type SafeHtml } from "./html.js";
import { DASHBOARD } from "./layout.js";
import { localTime } from "./local-time.js";

type JobView = ReturnType<typeof jobToApi>;
type MessageView = ReturnType<typeof messageToApi>;

const count = (n: number) => n.toLocaleString("en-US");

function jobState(job: JobView): string {
  if (job.state === "running") return `running: ${count(job.rows_written)} of ${count(job.total)} rows`;
  if (job.state === "failed") return `failed: ${job.error ?? ""}`;
  return job.state;
}

function filename(format: string, id: string) {
  return `payments-${id}.${format}`;
}

/**
 * Exports (queued jobs and their files), the Outbox (every e-mail the sandbox sent, as a mail catcher
 * shows it) and Settings → Reports (who receives them). The pages read and act through the control
 * API as the signed-in workspace; the signed download link is the one route that needs no session.
 */
export function registerMailAndExportsPages(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const signedIn = { preHandler: ctx.requireSession };
  const { deps } = ctx;
  const token = (request: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
  const sendFile = (reply: FastifyReply, format: "csv" | "pdf", id: string, file: Buffer) =>
    reply
      .type(format === "csv" ? "text/csv; charset=utf-8" : "application/pdf")
      .header("content-disposition", `attachment; filename="${filename(format, id)}"`)
      .header("cache-control", "no-store")
      .send(file);

  dashboard.get<{ Querystring: { queued?: string } }>(`${DASHBOARD}/exports`, signedIn, async (request, reply) => {
    const key = request.dashboardKey;
    const jobs = (await ctx.control(key, "GET", "/_sandbox/exports")).json().data as JobView[];
    const recipients = await deps.payments.reportRecipients(key);
    const queued = jobs.find((j) => j.id === request.query.queued);
    const notice = queued
      ? html`<div class="notice" role="status"><p>That export has ${count(queued.total)} payments, more than ${count(deps.exportQueueRows)}: it was queued. ${
          recipients.length > 0
            ? `A link to the file will be e-mailed to ${recipients.join(", ")} when it is ready.`
            : "Nobody receives reports yet: set recipients under Settings → Reports to have the link e-mailed."
        } It is also listed here.</p></div>`
      : "";
    const rows = jobs.map(
      (j) => html`<tr><td>${localTime(j.requested_at)}</td><td>${j.format.toUpperCase()}</td>
        <td>${
          Object.entries(j.filters)
            .map(([name, value]) => `${name} ${value}`)
            .join(", ") || "all"
        }</td>
        <td class="money">${count(j.total)}</td><td class="status">${jobState(j)}</td><td>${localTime(j.expires_at)}</td>
        <td>${j.state === "ready" ? html`<a href="${DASHBOARD}/exports/${j.id}/file">Download</a>` : ""}</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      "Exports",
      html`${notice}<p>Exports of more than ${count(deps.exportQueueRows)} payments are written in the background
        and sent as a link that works for ${deps.exports.linkHours} hours on the sandbox clock.
        <a href="${DASHBOARD}/exports">Refresh</a></p>
      <table aria-label="Exports"><thead><tr><th>Requested (Istanbul)</th><th>Format</th><th>Filters</th><th class="money">Payments</th>
        <th>State</th><th>Link expires</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  });

  dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/exports/:id/file`, signedIn, async (request, reply) => {
    const found = await deps.exports.file(request.dashboardKey, request.params.id);
    if (!found)
      return ctx.render(
        request,
        reply,
        "Export not available",
        html`<p class="error" role="alert">That export is not ready, has expired, or is not this workspace's.</p>`,
        404,
      );
    return sendFile(reply, found.job.format, found.job.id, found.file);
  });

  // The link in the e-mail: no session, only that file, only until it expires.
  dashboard.get<{ Params: { tag: string; id: string }; Querystring: { expires?: string; signature?: string } }>(
    `${DASHBOARD}/exports/:tag/:id/download`,
    async (request, reply) => {
      const { tag, id } = request.params;
      const { expires = "", signature = "" } = request.query;
      const workspace = deps.workspaceKeys.find((key) => workspaceTag(key) === tag);
      const refuse = (status: number, message: string) =>
        reply
          .code(status)
          .type("text/html; charset=utf-8")
          .send(
            html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Export link · payspec sandbox</title></head>
            <body><h1>Export link</h1><p role="alert">${message}</p></body></html>`.text,
          );
      if (!workspace || !validDownloadSignature(deps.secret, tag, id, expires, signature)) {
        return refuse(
          404,
          "This link is not valid. Use the link from the e-mail as it was sent, or download the export from the dashboard's Exports page.",
        );
      }
      const found = await deps.exports.file(workspace, id);
      if (!found || found.job.expiresAt !== Number(expires)) {
        return refuse(410, "This link has expired. Request the export again from the dashboard.");
      }
      return sendFile(reply, found.job.format, found.job.id, found.file);
    },
  );

  dashboard.get(`${DASHBOARD}/outbox`, signedIn, async (request, reply) => {
    const messages = (await ctx.control(request.dashboardKey, "GET", "/_sandbox/outbox")).json().data as MessageView[];
    const rows = messages.map(
      (m) => html`<tr><td>${localTime(m.created_at)}</td><td>${m.to.join(", ")}</td>
        <td><a href="${DASHBOARD}/outbox/${m.id}">${m.subject}</a></td><td>${m.attachments.length || ""}</td>
        <td class="status">${m.delivery.state}${m.delivery.last_error ? ` (${m.delivery.last_error})` : ""}</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      "Outbox",
      html`<p>Every e-mail this workspace's sandbox sent, newest first. ${
        messages.length === 0 ? "None yet." : ""
      } State <em>caught</em>: kept here only (no SMTP server is configured); <em>sent</em>, <em>retrying</em>
        or <em>failed</em>: what the SMTP server (PAYSPEC_SMTP_URL) answered.</p>
      <table aria-label="Outbox"><thead><tr><th>Time (Istanbul)</th><th>To</th><th>Subject</th><th>Attachments</th><th>Delivery</th></tr></thead>
      <tbody>${rows}</tbody></table>`,
    );
  });

  dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/outbox/:id`, signedIn, async (request, reply) => {
    const answer = await ctx.control(
      request.dashboardKey,
      "GET",
      `/_sandbox/outbox/${encodeURIComponent(request.params.id)}`,
    );
    if (answer.statusCode !== 200) {
      return ctx.render(
        request,
        reply,
        "E-mail not found",
        html`<p class="error" role="alert">${answer.json().message}</p>`,
        404,
      );
    }
    const m = answer.json() as MessageView;
    const links: SafeHtml[] = m.links.map((link) => html`<li><a href="${link}">${link}</a></li>`);
    const attachments = m.attachments.map(
      (a, n) =>
        html`<li><a href="${DASHBOARD}/outbox/${m.id}/attachments/${n}">${a.filename}</a> (${a.content_type}, ${count(a.size)} bytes)</li>`,
    );
    return ctx.render(
      request,
      reply,
      m.subject,
      html`<table aria-label="Headers"><tbody>
        <tr><th>From</th><td>${deps.mailer.from}</td></tr><tr><th>To</th><td>${m.to.join(", ")}</td></tr>
        <tr><th>Date</th><td>${localTime(m.created_at)}</td></tr><tr><th>Delivery</th><td class="status">${m.delivery.state}${
          m.delivery.attempts ? `, ${m.delivery.attempts} attempt(s)` : ""
        }${m.delivery.last_error ? `: ${m.delivery.last_error}` : ""}</td></tr></tbody></table>
      <h2>Message</h2><pre id="message-text">${m.text}</pre>
      ${links.length > 0 ? html`<h2>Links</h2><ul>${links}</ul>` : ""}
      ${attachments.length > 0 ? html`<h2>Attachments</h2><ul>${attachments}</ul>` : ""}
      <p><a href="${DASHBOARD}/outbox">Back to the outbox</a></p>`,
    );
  });

  dashboard.get<{ Params: { id: string; n: string } }>(
    `${DASHBOARD}/outbox/:id/attachments/:n`,
    signedIn,
    async (request, reply) => {
      const message = await deps.mailer.outbox.get(workspaceTag(request.dashboardKey), request.params.id);
      const attachment = message?.attachments[Number(request.params.n)];
      if (!attachment)
        return ctx.render(
          request,
          reply,
          "Attachment not found",
          html`<p class="error" role="alert">No such attachment.</p>`,
          404,
        );
      return reply
        .type(attachment.contentType)
        .header("content-disposition", `attachment; filename="${attachment.filename.replace(/[^\w.-]/g, "_")}"`)
        .send(attachment.content);
    },
  );

  async function reportsPage(
    request: FastifyRequest,
    reply: FastifyReply,
    notice?: SafeHtml,
    status = 200,
    entered?: string,
  ) {
    const recipients = await deps.payments.reportRecipients(request.dashboardKey);
    return ctx.render(
      request,
      reply,
      "Reports",
      html`${notice ?? ""}
      <form method="post" action="${DASHBOARD}/settings/reports" class="stacked">${token(request)}
        <label>Report recipients (one e-mail address per line, at most 10)
          <textarea name="recipients" id="recipients" rows="5">${entered ?? recipients.join("\n")}</textarea></label>
        <p><button type="submit">Save recipients</button></p>
      </form>
      <form method="post" action="${DASHBOARD}/settings/reports/test" class="inline">${token(request)}
        <button type="submit">Send a test e-mail</button></form>
      <p>Queued exports are e-mailed to these recipients. Every e-mail is kept in the <a href="${DASHBOARD}/outbox">Outbox</a>.</p>`,
      status,
    );
  }

  dashboard.get(`${DASHBOARD}/settings/reports`, signedIn, async (request, reply) => reportsPage(request, reply));

  dashboard.post(`${DASHBOARD}/settings/reports`, signedIn, async (request, reply) => {
    const entered = formField(request, "recipients") ?? "";
    const answer = await ctx.control(request.dashboardKey, "PUT", "/_sandbox/settings/report-recipients", {
      recipients: entered.split(/[\n\r,;]+/),
    });
    if (answer.statusCode !== 200) {
      return reportsPage(
        request,
        reply,
        html`<p class="error" role="alert">${answer.json().message}</p>`,
        400,
        typedAgain(entered),
      );
    }
    return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, { notice: "Recipients saved." });
  });

  dashboard.post(`${DASHBOARD}/settings/reports/test`, signedIn, async (request, reply) => {
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/outbox/test");
    const flash =
      answer.statusCode === 201
        ? { notice: "Test e-mail sent: it is in the Outbox." }
        : { error: answer.json().message };
    return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, flash);
  });
}
