import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
  problemsOfRefusal,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { formField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { fileSize } from "../infrastructure/i18n/formats.js";
import { isLocale, LANGUAGE_NAMES, LOCALES, t } from "../infrastructure/i18n/locale.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import type { Mailer } from "./mailer.js";
import type { MessageView, WorkspaceMail } from "./workspace-mail.js";

export interface OutboxPagesDeps {
  readonly mailer: Mailer;
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  readonly mail: WorkspaceMail;
}

/** The Outbox: every e-mail, newest first, with its delivery state and which clock dates what. */
async function outboxPage(deps: OutboxPagesDeps, ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply) {
  const messages = await deps.mail.messages(request.dashboardKey);
  const rows = messages.map(
    (m) => html`<tr><td>${localTime(m.created_at)}</td><td>${m.to.join(", ")}</td>
      <td><a href="${DASHBOARD}/outbox/${m.id}">${m.subject}</a></td><td>${m.attachments.length || ""}</td>
      <td class="status">${statusBadge(m.delivery.state)}${m.delivery.last_error ? ` (${m.delivery.last_error})` : ""}</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    t("Outbox", "Giden kutusu"),
    html`<p>${t("Every e-mail this workspace's sandbox sent, newest first.", "Bu çalışma alanının sandbox'ının gönderdiği her e-posta, en yenisi önce.")} ${
      messages.length === 0 ? t("None yet.", "Henüz yok.") : ""
    } ${t(
      `State "${statusWord("caught")}": kept here only (no SMTP server is configured); "${statusWord("sent")}", "${statusWord("retrying")}" or "${statusWord("failed")}": what the SMTP server (PAYSPEC_SMTP_URL) answered.`,
      `"${statusWord("caught")}" durumu: yalnızca burada tutuldu (SMTP sunucusu yapılandırılmamış); "${statusWord("sent")}", "${statusWord("retrying")}" ya da "${statusWord("failed")}": SMTP sunucusunun (PAYSPEC_SMTP_URL) yanıtı.`,
    )}</p>
    <p id="outbox-clocks">${t(
      "Two clocks: an e-mail is dated when it was really sent (real time); the report it carries covers a period on this workspace's sandbox clock, which may have been moved ahead, so a report can cover days after the e-mail's own date.",
      "İki saat var: e-posta gerçekten gönderildiği anla tarihlenir (gerçek zaman); taşıdığı rapor ise bu çalışma alanının ileri alınmış olabilen sandbox saatine göre bir dönemi kapsar; bu yüzden rapor, e-postanın kendi tarihinden sonraki günleri kapsayabilir.",
    )}</p>
    <table aria-label="${t("Outbox", "Giden kutusu")}"><thead><tr><th>${timeHeading("Sent", "Gönderilme", "real")}</th><th>${t("To", "Alıcı")}</th><th>${t("Subject", "Konu")}</th><th>${t("Attachments", "Ekler")}</th><th>${t("Delivery", "Teslim")}</th></tr></thead>
    <tbody>${rows}</tbody></table>`,
  );
}

/** One e-mail as a mail catcher shows it: headers, text, links, attachments. */
async function messagePage(
  deps: OutboxPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  let m: MessageView;
  try {
    m = await deps.mail.message(request.dashboardKey, request.params.id);
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    return ctx.render(
      request,
      reply,
      t("E-mail not found", "E-posta bulunamadı"),
      html`<p class="error" role="alert">${error.message}</p>`,
      404,
    );
  }
  const links: SafeHtml[] = m.links.map((link) => html`<li><a href="${link}">${link}</a></li>`);
  const attachments = m.attachments.map(
    (a, n) =>
      html`<li><a href="${DASHBOARD}/outbox/${m.id}/attachments/${n}">${a.filename}</a> (${a.content_type}, ${fileSize(a.size)})</li>`,
  );
  return ctx.render(
    request,
    reply,
    m.subject,
    html`<table aria-label="${t("Headers", "Başlıklar")}"><tbody>
      <tr><th scope="row">${t("From", "Gönderen")}</th><td>${deps.mailer.from}</td></tr><tr><th scope="row">${t("To", "Alıcı")}</th><td>${m.to.join(", ")}</td></tr>
      <tr><th scope="row">${timeHeading("Date", "Tarih", "real")}</th><td>${localTime(m.created_at)}</td></tr><tr><th scope="row">${t("Delivery", "Teslim")}</th><td class="status">${statusBadge(m.delivery.state)}${
        m.delivery.attempts ? t(`, ${m.delivery.attempts} attempt(s)`, `, ${m.delivery.attempts} deneme`) : ""
      }${m.delivery.last_error ? `: ${m.delivery.last_error}` : ""}</td></tr></tbody></table>
    <h2>${t("Message", "İleti")}</h2><pre id="message-text">${m.text}</pre>
    ${links.length > 0 ? html`<h2>${t("Links", "Bağlantılar")}</h2><ul>${links}</ul>` : ""}
    ${attachments.length > 0 ? html`<h2>${t("Attachments", "Ekler")}</h2><ul>${attachments}</ul>` : ""}
    <p class="actions"><a href="${DASHBOARD}/outbox">${t("Back to the outbox", "Giden kutusuna dön")}</a></p>`,
  );
}

/** An attachment of an e-mail, downloaded as it was sent. */
async function attachmentDownload(
  deps: OutboxPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string; n: string } }>,
  reply: FastifyReply,
) {
  const message = await deps.mailer.outbox.get(workspaceTag(request.dashboardKey), request.params.id);
  const attachment = message?.attachments[Number(request.params.n)];
  if (!attachment)
    return ctx.render(
      request,
      reply,
      t("Attachment not found", "Ek bulunamadı"),
      html`<p class="error" role="alert">${t("No such attachment.", "Böyle bir ek yok.")}</p>`,
      404,
    );
  return reply
    .type(attachment.contentType)
    .header("content-disposition", `attachment; filename="${attachment.filename.replace(/[^\w.-]/g, "_")}"`)
    .send(attachment.content);
}

/** Saves the recipients; a refusal keeps what was typed, every bad address named at once. */
async function saveRecipients(
  deps: OutboxPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const entered = formField(request, "recipients") ?? "";
  try {
    await deps.mail.saveRecipients(request.dashboardKey, { recipients: entered.split(/[\n\r,;]+/) });
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    const problems = problemsOfRefusal(error.paymentsBody(), ["recipients"]);
    return reportsPage(deps, ctx, request, reply, undefined, 400, typedAgain(entered), problems);
  }
  return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, {
    notice: t("Recipients saved.", "Alıcılar kaydedildi."),
  });
}

/** The language of e-mails and their reports. */
async function saveLanguage(
  deps: OutboxPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const language = formField(request, "language");
  if (!isLocale(language)) {
    return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, {
      error: t("Choose Türkçe or English.", "Türkçe ya da English seçin."),
    });
  }
  await deps.mailer.language.set(request.dashboardKey, language);
  return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, {
    notice: t(
      `E-mails and their reports are now written in ${LANGUAGE_NAMES[language]}.`,
      `E-postalar ve ekindeki raporlar artık ${language === "tr" ? "Türkçe" : "İngilizce"} yazılıyor.`,
    ),
  });
}

/** A test e-mail to the recipients, or what to do first. */
async function sendTest(deps: OutboxPagesDeps, ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply) {
  let flash: { notice: string } | { error: string };
  try {
    await deps.mail.sendTest(request.dashboardKey);
    flash = {
      notice: t("Test e-mail sent: it is in the Outbox.", "Deneme e-postası gönderildi: giden kutusunda."),
    };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    // Said of this page's own box rather than of the control API's path.
    flash =
      error.status === 409
        ? {
            error: t(
              "Nobody to send it to: add an address to Report recipients above, save, then send the test e-mail.",
              "Gönderilecek kimse yok: yukarıdaki Rapor alıcıları kutusuna bir adres ekleyip kaydedin, sonra deneme e-postasını gönderin.",
            ),
          }
        : { error: error.message };
  }
  return ctx.redirect(request, reply, `${DASHBOARD}/settings/reports`, flash);
}

async function reportsPage(
  deps: OutboxPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  notice?: SafeHtml,
  status = 200,
  entered?: string,
  problems: FormProblems = {},
) {
  const recipients = await deps.reportRecipients.get(request.dashboardKey);
  const language = await deps.mailer.language.get(request.dashboardKey);
  return ctx.render(
    request,
    reply,
    t("Reports", "Raporlar"),
    html`${notice ?? ""}${errorSummary(problems, { recipients: t("Report recipients", "Rapor alıcıları") })}
    <form method="post" action="${DASHBOARD}/settings/reports" class="stacked" novalidate>${csrfField(ctx, request)}
      <label>${t("Report recipients (one e-mail address per line, at most 10)", "Rapor alıcıları (her satıra bir e-posta adresi, en çok 10)")}
        <textarea name="recipients" rows="5" ${fieldAttributes(problems, "recipients")}>${entered ?? recipients.join("\n")}</textarea>${fieldError(problems, "recipients")}</label>
      <p><button type="submit">${t("Save recipients", "Alıcıları kaydet")}</button></p>
    </form>
    <form method="post" action="${DASHBOARD}/settings/reports/language" class="inline">${csrfField(ctx, request)}
      <label>${t("Language of e-mails and the reports they carry", "E-postaların ve ekindeki raporların dili")}
        <select name="language" id="mail-language">${LOCALES.map((l) => html`<option value="${l}" lang="${l}" ${l === language ? html`selected` : ""}>${LANGUAGE_NAMES[l]}</option>`)}</select></label>
      <button type="submit">${t("Save language", "Dili kaydet")}</button></form>
    <form method="post" action="${DASHBOARD}/settings/reports/test" class="inline">${csrfField(ctx, request)}
      <button type="submit">${t("Send a test e-mail", "Deneme e-postası gönder")}</button></form>
    <p>${t("Queued exports are e-mailed to these recipients. Every e-mail is kept in the", "Sıraya alınan dışa aktarımlar bu alıcılara e-postayla gönderilir. Her e-posta şurada tutulur:")} <a href="${DASHBOARD}/outbox">${t("Outbox", "Giden kutusu")}</a>.</p>`,
    status,
  );
}

/**
 * The Outbox (every e-mail the sandbox sent, as a mail catcher shows it) and Settings → Reports (who
 * receives them). The pages read and act through the same `WorkspaceMail` as the control API.
 */
export function outboxPages(deps: OutboxPagesDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };
    dashboard.get(`${DASHBOARD}/outbox`, signedIn, (request, reply) => outboxPage(deps, ctx, request, reply));

    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/outbox/:id`, signedIn, (request, reply) =>
      messagePage(deps, ctx, request, reply),
    );

    dashboard.get<{ Params: { id: string; n: string } }>(
      `${DASHBOARD}/outbox/:id/attachments/:n`,
      signedIn,
      (request, reply) => attachmentDownload(deps, ctx, request, reply),
    );

    dashboard.get(`${DASHBOARD}/settings/reports`, signedIn, (request, reply) =>
      reportsPage(deps, ctx, request, reply),
    );

    dashboard.post(`${DASHBOARD}/settings/reports`, signedIn, (request, reply) =>
      saveRecipients(deps, ctx, request, reply),
    );

    dashboard.post(`${DASHBOARD}/settings/reports/language`, signedIn, (request, reply) =>
      saveLanguage(deps, ctx, request, reply),
    );

    dashboard.post(`${DASHBOARD}/settings/reports/test`, signedIn, (request, reply) =>
      sendTest(deps, ctx, request, reply),
    );
  };
}
