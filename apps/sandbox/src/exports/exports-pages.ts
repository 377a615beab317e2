import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { count } from "../infrastructure/i18n/formats.js";
import { activeLocale, t } from "../infrastructure/i18n/locale.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { istanbulDate } from "../infrastructure/time/istanbul-time.js";
import { filterWords, listingFilters, type PaymentsStore } from "../payments/index.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import { validDownloadSignature } from "./download-link.js";
import { jobToApi } from "./export-controls.js";
import { attachmentHeader, exportFilename } from "./export-filename.js";
import type { ExportJob } from "./export-job-store.js";
import type { ExportQueue } from "./export-queue.js";

type JobView = ReturnType<typeof jobToApi>;
/** A job's state as a badge, with how far it got or why it failed. */
function jobState(job: JobView): SafeHtml {
  if (job.state === "running")
    return html`${statusBadge("running")} ${t(
      `${count(job.rows_written)} of ${count(job.total)} rows`,
      `${count(job.total)} satırın ${count(job.rows_written)} tanesi`,
    )}`;
  if (job.state === "failed") return html`${statusBadge("failed")} ${job.error ?? ""}`;
  return statusBadge(job.state);
}

export interface ExportsPagesDeps {
  readonly exports: ExportQueue;
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  readonly secret: SandboxSecret;
  /** The configured keys (PAYSPEC_API_KEYS): each names one workspace. */
  readonly workspaceKeys: readonly string[];
  /** An export of more rows than this is queued and e-mailed instead of downloaded. */
  readonly exportQueueRows: number;
  /** The workspace's accounts, to name a filtered one. */
  readonly payments: Pick<PaymentsStore, "accounts">;
}

const sendFile = (reply: FastifyReply, job: ExportJob, file: Buffer) =>
  reply
    .type(job.format === "csv" ? "text/csv; charset=utf-8" : "application/pdf")
    .header(
      "content-disposition",
      attachmentHeader(
        exportFilename(job.workspaceTag, listingFilters(job.listing), istanbulDate(job.requestedAt), job.format),
      ),
    )
    .header("cache-control", "no-store")
    .send(file);

/** The Exports page: the workspace's queued exports, each with its state and its file while it lasts. */
async function exportsPage(
  deps: ExportsPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest<{ Querystring: { queued?: string } }>,
  reply: FastifyReply,
) {
  const key = request.dashboardKey;
  const jobs = (await deps.exports.list(key)).map((job) => jobToApi(job, deps.exports.downloadUrl(job)));
  const recipients = await deps.reportRecipients.get(key);
  const accounts = await deps.payments.accounts(key);
  const queued = jobs.find((j) => j.id === request.query.queued);
  const notice = queued
    ? html`<div class="notice" role="status"><p>${t(
        `That export has ${count(queued.total)} payments, more than ${count(deps.exportQueueRows)}: it was queued.`,
        `Bu dışa aktarımda ${count(deps.exportQueueRows)} ödemeden fazlası (${count(queued.total)}) var: sıraya alındı.`,
      )} ${
        recipients.length > 0
          ? t(
              `A link to the file will be e-mailed to ${recipients.join(", ")} when it is ready.`,
              `Dosya hazır olunca bağlantısı ${recipients.join(", ")} adresine e-postayla gönderilecek.`,
            )
          : t(
              "Nobody receives reports yet: set recipients under Settings → Reports to have the link e-mailed.",
              "Henüz rapor alan kimse yok: bağlantının e-postayla gönderilmesi için Raporlar sayfasında alıcı ekleyin.",
            )
      } ${t("It is also listed here.", "Burada da listelenir.")}</p></div>`
    : "";
  const rows = jobs.map(
    (j) => html`<tr><td>${localTime(j.requested_at)}</td><td>${j.format.toUpperCase()}</td>
      <td>${filterWords(j.filters, accounts) || t("all", "tümü")}</td>
      <td class="money">${count(j.total)}</td><td class="status">${jobState(j)}</td><td>${localTime(j.expires_at)}</td>
      <td>${j.state === "ready" ? html`<a href="${DASHBOARD}/exports/${j.id}/file">${t("Download", "İndir")}</a>` : ""}</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    t("Exports", "Dışa aktarımlar"),
    html`${notice}<p>${t(
      `Exports of more than ${count(deps.exportQueueRows)} payments are written in the background and sent as a link that works for ${deps.exports.linkHours} hours on the sandbox clock.`,
      `${count(deps.exportQueueRows)} ödemeden büyük dışa aktarımlar arka planda yazılır ve sandbox saatine göre ${deps.exports.linkHours} saat çalışan bir bağlantıyla gönderilir.`,
    )}
      <a href="${DASHBOARD}/exports">${t("Refresh", "Yenile")}</a></p>
    <table aria-label="${t("Exports", "Dışa aktarımlar")}"><thead><tr><th>${timeHeading("Requested", "İstenme", "sandbox")}</th><th>${t("Format", "Biçim")}</th><th>${t("Filters", "Filtreler")}</th><th class="money">${t("Payments", "Ödemeler")}</th>
      <th>${t("State", "Durum")}</th><th>${timeHeading("Link expires", "Bağlantının son geçerliliği", "sandbox")}</th><th></th></tr></thead><tbody>${
        rows.length > 0
          ? rows
          : html`<tr><td colspan="7">${t("No exports yet: exports of large listings appear here.", "Henüz dışa aktarım yok: büyük listelerin dışa aktarımları burada görünür.")}</td></tr>`
      }</tbody></table>`,
  );
}

/** A finished export's file, to the signed-in workspace. */
async function exportFile(
  deps: ExportsPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const found = await deps.exports.file(request.dashboardKey, request.params.id);
  if (!found)
    return ctx.render(
      request,
      reply,
      t("Export not available", "Dışa aktarım yok"),
      html`<p class="error" role="alert">${t(
        "That export is not ready, has expired, or is not this workspace's.",
        "Bu dışa aktarım hazır değil, süresi dolmuş ya da bu çalışma alanının değil.",
      )}</p>`,
      404,
    );
  return sendFile(reply, found.job, found.file);
}

/** The link in the e-mail: no session, only that file, only until it expires. */
async function signedDownload(
  deps: ExportsPagesDeps,
  request: FastifyRequest<{
    Params: { tag: string; id: string };
    Querystring: { expires?: string; signature?: string };
  }>,
  reply: FastifyReply,
) {
  const { tag, id } = request.params;
  const { expires = "", signature = "" } = request.query;
  const workspace = deps.workspaceKeys.find((key) => workspaceTag(key) === tag);
  const refuse = (status: number, message: string) =>
    reply
      .code(status)
      .type("text/html; charset=utf-8")
      .send(
        html`<!doctype html><html lang="${activeLocale()}"><head><meta charset="utf-8"><title>${t("Export link", "Dışa aktarım bağlantısı")} · payspec sandbox</title></head>
        <body><h1>${t("Export link", "Dışa aktarım bağlantısı")}</h1><p role="alert">${message}</p></body></html>`.text,
      );
  if (!workspace || !validDownloadSignature(deps.secret, tag, id, expires, signature)) {
    return refuse(
      404,
      t(
        "This link is not valid. Use the link from the e-mail as it was sent, or download the export from the dashboard's Exports page.",
        "Bu bağlantı geçerli değil. E-postadaki bağlantıyı gönderildiği gibi kullanın ya da dışa aktarımı paneldeki Dışa aktarımlar sayfasından indirin.",
      ),
    );
  }
  const found = await deps.exports.file(workspace, id);
  if (!found || found.job.expiresAt !== Number(expires)) {
    return refuse(
      410,
      t(
        "This link has expired. Request the export again from the dashboard.",
        "Bu bağlantının süresi doldu. Dışa aktarımı panelden yeniden isteyin.",
      ),
    );
  }
  return sendFile(reply, found.job, found.file);
}

/**
 * Exports (queued jobs and their files), shown as the control API lists them (the same views, from
 * the same queue); the signed download link is the one route that needs no session.
 */
export function exportsPages(deps: ExportsPagesDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get<{ Querystring: { queued?: string } }>(`${DASHBOARD}/exports`, signedIn, (request, reply) =>
      exportsPage(deps, ctx, request, reply),
    );

    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/exports/:id/file`, signedIn, (request, reply) =>
      exportFile(deps, ctx, request, reply),
    );

    // The link in the e-mail: no session, only that file, only until it expires.
    dashboard.get<{ Params: { tag: string; id: string }; Querystring: { expires?: string; signature?: string } }>(
      `${DASHBOARD}/exports/:tag/:id/download`,
      (request, reply) => signedDownload(deps, request, reply),
    );
  };
}
