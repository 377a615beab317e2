import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { formField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { workspaceTag } from "../infrastructure/workspaces/workspace-tag.js";
import type { Mailer } from "./mailer.js";
import type { messageToApi } from "./outbox-routes.js";

type MessageView = ReturnType<typeof messageToApi>;

const count = (n: number) => n.toLocaleString("en-US");

export interface OutboxPagesDeps {
  readonly mailer: Mailer;
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
}

/**
 * The Outbox (every e-mail the sandbox sent, as a mail catcher shows it) and Settings → Reports (who
 * receives them). The pages read and act through the control API as the signed-in workspace.
 */
export function outboxPages(deps: OutboxPagesDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };
    const token = (request: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
    dashboard.get(`${DASHBOARD}/outbox`, signedIn, async (request, reply) => {
      const messages = (await ctx.control(request.dashboardKey, "GET", "/_sandbox/outbox")).json()
        .data as MessageView[];
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
        <table aria-label="Outbox"><thead><tr><th>Sent (Istanbul, real time)</th><th>To</th><th>Subject</th><th>Attachments</th><th>Delivery</th></tr></thead>
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
          <tr><th>Date (Istanbul, real time)</th><td>${localTime(m.created_at)}</td></tr><tr><th>Delivery</th><td class="status">${m.delivery.state}${
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
      const recipients = await deps.reportRecipients.get(request.dashboardKey);
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
      // Said of this page's own box rather than of the control API's path.
      const flash =
        answer.statusCode === 201
          ? { notice: "Test e-mail sent: it is in the Outbox." }
          : answer.statusCode === 409
            ? {
                error:
                  "Nobody to send it to: add an address to Report recipients above, save, then send the test e-mail.",
              }
            : { error: answer.json().message };
      return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, flash);
    });
  };
}
