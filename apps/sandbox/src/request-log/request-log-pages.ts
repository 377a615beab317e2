import type { FastifyInstance } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { clockNote, localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { milliseconds, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { ApiRequestLog, LoggedRequest } from "./api-request-log.js";

/** The status the client saw, or that it saw none. */
const statusSeen = (entry: LoggedRequest) =>
  entry.status === undefined ? t("none (connection reset)", "yok (bağlantı koptu)") : String(entry.status);

/** How often the open log page asks for new rows. */
const REFRESH = "every 2s";

function verdict(entry: LoggedRequest): SafeHtml {
  if (entry.fault)
    return html`<span class="verdict">${t("injected:", "enjekte edilen hata:")} ${entry.fault.name}</span>`;
  return entry.violations.length === 0
    ? html`<span class="verdict">${t("conforms", "uygun")}</span>`
    : html`<span class="verdict error">${plural(entry.violations.length, "violation", "ihlal")}</span>`;
}

function rows(entries: readonly LoggedRequest[]): SafeHtml {
  // htmx replaces this tbody with the one it fetches, every few seconds, while the page is open.
  return html`<tbody id="request-log-rows" hx-get="${DASHBOARD}/requests/rows" hx-trigger="${REFRESH}" hx-swap="outerHTML">
  ${
    entries.length === 0
      ? html`<tr><td colspan="6">${t(
          "No API requests for this workspace yet. Send one with its API key and it appears here.",
          "Bu çalışma alanına henüz API isteği gelmedi. API anahtarıyla bir istek gönderin, burada görünür.",
        )}</td></tr>`
      : entries.map(
          (e) => html`<tr><td>${localTime(e.at)}</td><td>${e.method}</td>
            <td><a href="${DASHBOARD}/requests/${e.id}">${e.url}</a></td><td>${statusSeen(e)}</td>
            <td class="money">${milliseconds(e.latencyMs)}</td><td>${verdict(e)}</td></tr>`,
        )
  }</tbody>`;
}

/**
 * The workspace's recent API requests, live: method, path, status, latency and the spec's verdict on
 * each answer; an entry's page shows the bodies with card numbers masked and CVCs removed.
 */
export function requestLogPage(requestLog: ApiRequestLog): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get(`${DASHBOARD}/requests`, signedIn, async (request, reply) =>
      ctx.render(
        request,
        reply,
        t("Request log", "İstek kaydı"),
        html`<p>${t(
          "The last requests made to the payments API with this workspace's key, newest first; this page refreshes itself. Each answer is checked against the payments spec.",
          "Ödeme API'sine bu çalışma alanının anahtarıyla yapılan son istekler, en yenisi önce; sayfa kendini yeniler. Her yanıt ödeme API'sinin spesifikasyonuna göre denetlenir.",
        )}</p>
        <table aria-label="${t("Request log", "İstek kaydı")}"><thead><tr><th>${timeHeading("Time", "Zaman", "real")}</th><th>${t("Method", "Yöntem")}</th><th>${t("Path", "Yol")}</th><th>${t("Status", "Durum")}</th>
        <th class="money">${t("Latency", "Gecikme")}</th><th>${t("Spec verdict", "Spesifikasyon kararı")}</th></tr></thead>${rows(requestLog.entries(request.dashboardKey))}</table>`,
      ),
    );

    dashboard.get(`${DASHBOARD}/requests/rows`, signedIn, async (request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(rows(requestLog.entries(request.dashboardKey)).text),
    );

    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/requests/:id`, signedIn, async (request, reply) => {
      const entry = requestLog.entry(request.dashboardKey, Number(request.params.id));
      if (!entry) {
        return ctx.render(
          request,
          reply,
          t("Request not found", "İstek bulunamadı"),
          html`<p>${t(
            "That request is not in this workspace's log (it keeps the last 100).",
            "Bu istek çalışma alanının kaydında yok (kayıt son 100 isteği tutar).",
          )}</p>`,
          404,
        );
      }
      return ctx.render(
        request,
        reply,
        `${entry.method} ${entry.url}`,
        html`<p>${localTime(entry.at)} (${clockNote("real")}) · ${t("status", "durum")} ${statusSeen(entry)} · ${milliseconds(entry.latencyMs)} · ${verdict(entry)}</p>
        ${
          entry.fault
            ? html`<p>${t(
                `A fault declared for this workspace struck this request: the client saw ${entry.fault.clientSaw}. It is not judged against the spec.`,
                `Bu çalışma alanı için tanımlanan bir hata bu isteğe denk geldi: istemci şunu gördü: ${entry.fault.clientSaw}. Spesifikasyona göre değerlendirilmez.`,
              )}</p>`
            : ""
        }
        ${entry.violations.length ? html`<h2>${t("Violations of the spec", "Spesifikasyon ihlalleri")}</h2><ul>${entry.violations.map((v) => html`<li>${v}</li>`)}</ul>` : ""}
        <h2>${t("Request body", "İstek gövdesi")}</h2><pre>${entry.requestBody ?? t("(none)", "(yok)")}</pre>
        <h2>${t("Response body", "Yanıt gövdesi")}</h2><pre>${entry.responseBody ?? t("(none)", "(yok)")}</pre>
        <p class="actions"><a href="${DASHBOARD}/requests">${t("Back to the request log", "İstek kaydına dön")}</a></p>`,
      );
    });
  };
}
