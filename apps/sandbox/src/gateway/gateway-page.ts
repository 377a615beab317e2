import { toMinorUnits } from "@payspec/client-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../infrastructure/clock/clock.js";
import { GATEWAY_SCOPE } from "../infrastructure/clock/clock.js";
import { istanbulDateTime } from "../infrastructure/clock/istanbul-time.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, plural, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { money } from "../infrastructure/dashboard-shell/money-format.js";
import { dailyReport, XLSX } from "./gateway-api.js";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

const zDate = z.iso.date();

const detailPath = (referenceId: string) => `${DASHBOARD}/gateway/payments/${encodeURIComponent(referenceId)}`;

function paymentRow({ payment: p }: StoredCardPayment) {
  return html`<tr><td><a href="${detailPath(p.referenceId)}">${p.orderId}</a></td><td><time>${p.createdDate.replace("T", " ")}</time></td>
    <td class="money">${money(toMinorUnits(p.amount, p.currency), p.currency)}</td><td>${statusBadge(p.paymentStatus.toLowerCase())}</td>
    <td>${p.cardDetails.cardHolderName}</td><td><code>${p.cardDetails.cardNumber}</code></td><td>${p.cardDetails.cardBank}</td><td>${p.installment}</td></tr>`;
}

/** Why the bank said no, in words: the sandbox's test cards decline only as the bank does. */
function outcomeInWords(p: StoredCardPayment["payment"]): string {
  return p.paymentStatus === "SUCCESS"
    ? `Approved by ${p.cardDetails.cardBank} (authorisation code ${p.authCode ?? "none"}).`
    : `Declined by ${p.cardDetails.cardBank}: the bank refused the card (nothing was charged). A retry with the same card is declined again; ask the customer for another card.`;
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
      return ctx.render(
        request,
        reply,
        "Gateway card payments",
        html`${valid ? "" : html`<p class="error" role="alert">date: enter a date as YYYY-MM-DD; showing today.</p>`}
        <form class="filters" method="get" action="${DASHBOARD}/gateway" aria-label="Choose a date">
          <label>Date (Istanbul) <input type="date" name="date" value="${date}"></label><button type="submit">Show</button>
        </form>
        <p>${plural(payments.length, "card payment")} on ${date}, ${plural(payments.filter((p) => p.payment.paymentStatus === "SUCCESS").length, "successful one")}.
          <a href="${DASHBOARD}/gateway/report.xlsx?date=${date}" download>Download the daily report (.xlsx)</a>:
          as the gateway's report does, it lists the successful payments only.</p>
        <table aria-label="Card payments"><thead><tr><th>Order</th><th>Created (Istanbul, gateway clock)</th><th class="money">Amount</th><th>Outcome</th>
        <th>Card holder</th><th>Card</th><th>Bank</th><th>Installments</th></tr></thead><tbody>${
          payments.length > 0
            ? payments.map(paymentRow)
            : html`<tr><td colspan="8">No card payments on this date.</td></tr>`
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
            "Card payment not found",
            html`<p>No card payment with that reference.</p>`,
            404,
          );
        }
        const p = stored.payment;
        const row = (name: string, value: unknown) =>
          html`<tr><th scope="row">${name}</th><td>${value as string}</td></tr>`;
        return ctx.render(
          request,
          reply,
          `Card payment ${p.orderId}`,
          html`<p class="${p.paymentStatus === "SUCCESS" ? "notice" : "warning"}" id="card-outcome">${outcomeInWords(p)}</p>
          <table aria-label="Card payment"><tbody>
            ${row("Outcome", statusBadge(p.paymentStatus.toLowerCase()))}
            ${row("Amount", money(toMinorUnits(p.amount, p.currency), p.currency))}
            ${row("Final amount", money(toMinorUnits(p.finalAmount, p.currency), p.currency))}
            ${row("Installments", p.installment)}
            ${row("Created (Istanbul, gateway clock)", p.createdDate.replace("T", " "))}
            ${row("Card holder", p.cardDetails.cardHolderName)}
            ${row("Card (masked)", html`<code>${p.cardDetails.cardNumber}</code>`)}
            ${row("Card brand and scheme", `${p.cardDetails.cardBrand} · ${p.cardDetails.cardSchema}`)}
            ${row("Bank", `${p.cardDetails.cardBank} (${p.bankCode})`)}
            ${row("Name at the bank", p.bankCardHolderName)}
            ${row("Reference", p.referenceId)}
            ${row("Order", p.orderId)}
            ${row("Transaction type", p.transactionType)}
            ${row("Authorisation code", p.authCode ?? "none")}
            ${row("Commission", money(toMinorUnits(stored.commission, p.currency), p.currency))}
          </tbody></table>
          <p><a href="${DASHBOARD}/gateway?date=${p.createdDate.slice(0, 10)}">Back to ${p.createdDate.slice(0, 10)}</a></p>`,
        );
      },
    );

    dashboard.get(`${DASHBOARD}/gateway/report.xlsx`, signedIn, async (request, reply) => {
      const date = queryField(request, "date") ?? (await today());
      if (!zDate.safeParse(date).success) {
        return ctx.render(
          request,
          reply,
          "No report",
          html`<p class="error" role="alert">date: enter a date as YYYY-MM-DD.</p>`,
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
