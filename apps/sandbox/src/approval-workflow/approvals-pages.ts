import type { FastifyInstance } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import { count, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { browsePayments, type PaymentsStore } from "../payments/index.js";

/** At most this many waiting payments on the page (newest first); the count says if there are more. */
const SHOWN = 100;

/** How many payments wait for an approver in the workspace (the navigation shows it). */
export async function approvalsWaiting(payments: PaymentsStore, workspace: string): Promise<number> {
  const snapshot = await payments.snapshot(workspace);
  const { total = 0 } = await payments.list(workspace, {
    afterSeq: 0,
    snapshotSeq: snapshot.seq,
    asOfVersion: snapshot.version,
    awaitingApproval: true,
    limit: 0,
    countTotal: true,
  });
  return total;
}

/**
 * Approvals: the queue of dashboard payments waiting for an approver, newest first, each with its
 * Approve button (the payment's page says what was approved). API payments never wait here.
 */
export function approvalsPage(payments: PaymentsStore): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.get(`${DASHBOARD}/approvals`, { preHandler: ctx.requireSession }, async (request, reply) => {
      const key = request.dashboardKey;
      await ctx.catchUp(key);
      const waiting = await browsePayments(payments, key, { awaitingApproval: true }, {}, SHOWN);
      const token = html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
      const rows = waiting.payments.map(
        (p) => html`<tr><td><a href="${DASHBOARD}/payments/${p.id}">${p.id}</a></td><td>${localTime(p.created_at)}</td>
          <td class="money">${money(p.amount, p.currency)}</td><td>${p.reference ?? ""}</td><td>${p.description ?? ""}</td>
          <td><form class="inline" method="post" action="${DASHBOARD}/payments/${p.id}/approve">${token}
            <button type="submit" aria-label="${t("Approve", "Onayla:")} ${p.id}">${t("Approve", "Onayla")}</button></form></td></tr>`,
      );
      return ctx.render(
        request,
        reply,
        t("Approvals", "Onaylar"),
        html`<p id="approvals-count">${plural(waiting.total, "payment", "ödeme")} ${t("waiting for an approver", "onay bekliyor")}${
          waiting.total > SHOWN
            ? t(` (the newest ${SHOWN} are shown)`, ` (en yeni ${count(SHOWN)} tanesi gösteriliyor)`)
            : ""
        }. ${t(
          "Only payments made in the dashboard while the approval workflow is on wait here.",
          "Burada yalnızca onay akışı açıkken panelden oluşturulan ödemeler bekler.",
        )}</p>
        <table aria-label="${t("Waiting for approval", "Onay bekleyenler")}"><thead><tr><th>${t("Payment", "Ödeme")}</th><th>${t("Created (Istanbul, sandbox clock)", "Oluşturulma (İstanbul, sandbox saati)")}</th>
          <th class="money">${t("Amount", "Tutar")}</th><th>${t("Reference", "Referans")}</th><th>${t("Description", "Açıklama")}</th><th></th></tr></thead>
        <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="6">${t("Nothing waits for an approver.", "Onay bekleyen bir şey yok.")}</td></tr>`}</tbody></table>`,
      );
    });
  };
}
