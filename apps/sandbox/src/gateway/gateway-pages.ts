import { toMinorUnits } from "@payspec/client-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../clock/index.js";
import { GATEWAY_SCOPE } from "../clock/index.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { type Clock, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { calendarDay, dateTime, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { istanbulDateTime } from "../infrastructure/time/istanbul-time.js";
import { dailyReport, XLSX } from "./gateway-api.js";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

const zDate = z.iso.date();

const detailPath = (referenceId: string) => `${DASHBOARD}/gateway/payments/${encodeURIComponent(referenceId)}`;

function paymentRow({ payment: p }: StoredCardPayment) {
  return html`<tr><td><a href="${detailPath(p.referenceId)}">${p.orderId}</a></td><td><time>${gatewayTime(p.createdDate)}</time></td>
    <td class="money">${money(toMinorUnits(p.amount, p.currency), p.currency)}</td><td>${statusBadge(p.paymentStatus.toLowerCase())}</td>
    <td>${p.cardDetails.cardHolderName}</td><td><code>${p.cardDetails.cardNumber}</code></td><td>${p.cardDetails.cardBank}</td><td>${p.installment}</td></tr>`;
}

/** A card transaction's type in words, its code beside: "satış (AUTH)", "ön provizyon (PREAUTH)". */
function transactionWord(type: string): string {
  const words: Record<string, readonly [string, string]> = {
    AUTH: ["sale", "satış"],
    PREAUTH: ["pre-authorization", "ön provizyon"],
  };
  const word = words[type];
  return word ? `${t(...word)} (${type})` : type;
}
/** The gateway's createdDate (Istanbul wall-clock time, as its API gives it) in the reader's format. */
function gatewayTime(createdDate: string): string {
  const ms = Date.parse(`${createdDate.replace(" ", "T")}+03:00`);
  return Number.isFinite(ms) ? dateTime(ms) : createdDate;
}

/** Why the bank said no, in words: the sandbox's test cards decline only as the bank does. */
function outcomeInWords(p: StoredCardPayment["payment"]): string {
  return p.paymentStatus === "SUCCESS"
    ? t(
        `Approved by ${p.cardDetails.cardBank} (authorisation code ${p.authCode ?? "none"}).`,
        `${p.cardDetails.cardBank} tarafından onaylandı (provizyon kodu ${p.authCode ?? "yok"}).`,
      )
    : t(
        `Declined by ${p.cardDetails.cardBank}: the bank refused the card (nothing was charged). A retry with the same card is declined again; ask the customer for another card.`,
        `${p.cardDetails.cardBank} tarafından reddedildi: banka kartı kabul etmedi (tahsilat yapılmadı). Aynı kartla yeniden deneme yine reddedilir; müşteriden başka bir kart isteyin.`,
      );
}

export interface GatewayPageDeps {
  readonly gateway: GatewayStore;
  readonly clocks: SandboxClocks;
}

/**
 * The card payments made with the sandbox's gateway credentials, by Istanbul date (cards masked as
 * stored: first six, last four), and that date's daily report.
 */
export function gatewayPage(deps: GatewayPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const { gateway, clocks } = deps;
    const signedIn = { preHandler: ctx.requireGatewaySession };
    const today = async () => istanbulDateTime(await clocks.now(GATEWAY_SCOPE)).slice(0, 10);

    dashboard.get(`${DASHBOARD}/gateway`, signedIn, async (request, reply) => {
      const asked = queryField(request, "date");
      const valid = asked === undefined || zDate.safeParse(asked).success;
      const date = valid && asked ? asked : await today();
      const payments = await gateway.onLocalDate(date);
      const successful = payments.filter((p) => p.payment.paymentStatus === "SUCCESS").length;
      return ctx.render(
        request,
        reply,
        t("Gateway card payments", "Ödeme geçidi kart ödemeleri"),
        html`${valid ? "" : html`<p class="error" role="alert">${t("Date: enter a date as YYYY-MM-DD; showing today.", "Tarih: YYYY-AA-GG biçiminde bir tarih girin; bugün gösteriliyor.")}</p>`}
        <form class="filters" method="get" action="${DASHBOARD}/gateway" aria-label="${t("Choose a date", "Tarih seçin")}">
          <label>${timeHeading("Date", "Tarih", "gateway")} <input type="date" name="date" value="${date}"></label><button type="submit">${t("Show", "Göster")}</button>
        </form>
        <p>${t(
          `${plural(payments.length, "card payment", "kart ödemesi")} on ${date}, ${plural(successful, "successful one", "başarılı")}.`,
          `${calendarDay(date)} tarihinde ${plural(payments.length, "card payment", "kart ödemesi")}, bunların ${plural(successful, "successful one", "tanesi başarılı")}.`,
        )}
          <a href="${DASHBOARD}/gateway/report.xlsx?date=${date}" download>${t("Download the daily report (.xlsx)", "Günlük raporu indir (.xlsx)")}</a>:
          ${t("as the gateway's report does, it lists the successful payments only.", "ödeme geçidinin raporu gibi yalnızca başarılı ödemeleri listeler.")}</p>
        <table aria-label="${t("Card payments", "Kart ödemeleri")}"><thead><tr><th>${t("Order", "Sipariş")}</th><th>${timeHeading("Created", "Oluşturulma", "gateway")}</th><th class="money">${t("Amount", "Tutar")}</th><th>${t("Outcome", "Sonuç")}</th>
        <th>${t("Card holder", "Kart sahibi")}</th><th>${t("Card", "Kart")}</th><th>${t("Bank", "Banka")}</th><th>${t("Installments", "Taksit")}</th></tr></thead><tbody>${
          payments.length > 0
            ? payments.map(paymentRow)
            : html`<tr><td colspan="8">${t("No card payments on this date.", "Bu tarihte kart ödemesi yok.")}</td></tr>`
        }</tbody></table>`,
        valid ? 200 : 400,
      );
    });

    dashboard.get<{ Params: { reference: string } }>(
      `${DASHBOARD}/gateway/payments/:reference`,
      signedIn,
      async (request, reply) => {
        const stored = await gateway.byReference(request.params.reference);
        if (!stored) {
          return ctx.render(
            request,
            reply,
            t("Card payment not found", "Kart ödemesi bulunamadı"),
            html`<p>${t("No card payment with that reference.", "Bu referansla bir kart ödemesi yok.")}</p>`,
            404,
          );
        }
        const p = stored.payment;
        const row = (en: string, tr: string, value: unknown, clock?: Clock) =>
          html`<tr><th scope="row">${clock ? timeHeading(en, tr, clock) : t(en, tr)}</th><td>${value as string}</td></tr>`;
        return ctx.render(
          request,
          reply,
          `${t("Card payment", "Kart ödemesi")} ${p.orderId}`,
          html`<p class="${p.paymentStatus === "SUCCESS" ? "notice" : "warning"}" id="card-outcome">${outcomeInWords(p)}</p>
          <table aria-label="${t("Card payment", "Kart ödemesi")}"><tbody>
            ${row("Outcome", "Sonuç", statusBadge(p.paymentStatus.toLowerCase()))}
            ${row("Amount", "Tutar", money(toMinorUnits(p.amount, p.currency), p.currency))}
            ${row("Final amount", "Son tutar", money(toMinorUnits(p.finalAmount, p.currency), p.currency))}
            ${row("Installments", "Taksit", p.installment)}
            ${row("Created", "Oluşturulma", gatewayTime(p.createdDate), "gateway")}
            ${row("Card holder", "Kart sahibi", p.cardDetails.cardHolderName)}
            ${row("Card (masked)", "Kart (maskeli)", html`<code>${p.cardDetails.cardNumber}</code>`)}
            ${row("Card brand and scheme", "Kart markası ve şeması", `${p.cardDetails.cardBrand} · ${p.cardDetails.cardSchema}`)}
            ${row("Bank", "Banka", `${p.cardDetails.cardBank} (${p.bankCode})`)}
            ${row("Name at the bank", "Bankadaki ad", p.bankCardHolderName)}
            ${row("Reference", "Referans", p.referenceId)}
            ${row("Order", "Sipariş", p.orderId)}
            ${row("Transaction type", "İşlem türü", transactionWord(p.transactionType))}
            ${row("Authorisation code", "Provizyon kodu", p.authCode ?? t("none", "yok"))}
            ${row("Commission", "Komisyon", money(toMinorUnits(stored.commission, p.currency), p.currency))}
          </tbody></table>
          <p class="actions"><a href="${DASHBOARD}/gateway?date=${p.createdDate.slice(0, 10)}">${t("Back to", "Geri dön:")} ${calendarDay(p.createdDate.slice(0, 10))}</a></p>`,
        );
      },
    );

    dashboard.get(`${DASHBOARD}/gateway/report.xlsx`, signedIn, async (request, reply) => {
      const date = queryField(request, "date") ?? (await today());
      if (!zDate.safeParse(date).success) {
        return ctx.render(
          request,
          reply,
          t("No report", "Rapor yok"),
          html`<p class="error" role="alert">${t("Date: enter a date as YYYY-MM-DD.", "Tarih: YYYY-AA-GG biçiminde bir tarih girin.")}</p>`,
          400,
        );
      }
      return reply
        .type(XLSX)
        .header("content-disposition", `attachment; filename="daily-transactions-${date}.xlsx"`)
        .send(await dailyReport(gateway, date));
    });
  };
}
