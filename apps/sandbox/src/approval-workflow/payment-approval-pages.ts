import type { FastifyInstance } from "fastify";
import { workspaceScope } from "../clock/index.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { signerOf } from "../infrastructure/dashboard-shell/signed-in-session.js";
import { t } from "../infrastructure/i18n/locale.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import { paymentPagePath } from "../payments/index.js";
import type { ApprovalsPageDeps } from "./approvals-pages.js";
import { approvePayment } from "./approver-decisions.js";

/** The Approve button of a payment's own page (the payments feature shows it while the payment waits). */
export function approveOnPaymentPage(deps: ApprovalsPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.post<{ Params: { id: string } }>(
      `${DASHBOARD}/payments/:id/approve`,
      { preHandler: ctx.requireSession },
      async (request, reply) => {
        const key = request.dashboardKey;
        const { id } = request.params;
        // No completion first: a payment waiting for an approver never becomes due.
        const signer = signerOf(request.dashboardSession);
        const result = await approvePayment(deps.payments, key, id, await deps.clocks.now(workspaceScope(key)), {
          fourEyes: await deps.fourEyes.get(key),
          ...(signer ? { actor: signer } : {}),
        });
        if (!result.ok && result.reason === "same_person") {
          return ctx.redirect(request, reply, paymentPagePath(id), {
            error: t(
              "The four-eyes rule is on: someone else must approve what you submitted. Sign in with another API key of this workspace (create one under API keys).",
              "Dört göz kuralı açık: sizin gönderdiğinizi başka biri onaylamalı. Bu çalışma alanının başka bir API anahtarıyla oturum açın (API anahtarları sayfasında oluşturabilirsiniz).",
            ),
          });
        }
        if (!result.ok) {
          return ctx.redirect(request, reply, paymentPagePath(id), {
            error: t(
              `Only a dashboard payment waiting for an approver can be approved; this one is ${statusWord(result.payment?.status ?? "gone")}.`,
              `Yalnızca panelden oluşturulup onay bekleyen bir ödeme onaylanabilir; bu ödemenin durumu: ${statusWord(result.payment?.status ?? "yok")}.`,
            ),
          });
        }
        return reply.redirect(`${paymentPagePath(id)}?done=approved`, 303);
      },
    );
  };
}
