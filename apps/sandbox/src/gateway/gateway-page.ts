import { toMinorUnits } from "@payspec/client-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../infrastructure/clock/clock.js";
import { GATEWAY_SCOPE } from "../infrastructure/clock/clock.js";
import { istanbulDateTime } from "../infrastructure/clock/istanbul-time.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { money } from "../infrastructure/dashboard-shell/money-format.js";
import { dailyReport, XLSX } from "./gateway-api.js";
import type { GatewayStore, StoredCardPayment } from "./gateway-store.js";

const zDate = z.iso.date();

function paymentRow({ payment: p }: StoredCardPayment) {
  return html`<tr><td>${p.createdDate}</td><td>${p.referenceId}</td><td>${p.orderId}</td><td>${p.cardDetails.cardNumber}</td>
    <td class="money">${money(toMinorUnits(p.amount, p.currency), p.currency)}</td><td>${p.installment}</td><td class="status">${p.paymentStatus}</td></tr>`;
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
        <p>${payments.length} card payments on ${date}. <a href="${DASHBOARD}/gateway/report.xlsx?date=${date}" download>Download the daily report (.xlsx)</a></p>
        <table aria-label="Card payments"><thead><tr><th>Created (Istanbul)</th><th>Reference</th><th>Order</th><th>Card</th>
        <th class="money">Amount</th><th>Installments</th><th>Status</th></tr></thead><tbody>${payments.map(paymentRow)}</tbody></table>`,
        valid ? 200 : 400,
      );
    });

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
