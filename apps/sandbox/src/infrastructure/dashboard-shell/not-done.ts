import type { FastifyReply, FastifyRequest } from "fastify";
import { t } from "../i18n/locale.js";
import type { DashboardContext } from "./context.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";

/** An action of the overview refused (400): why, and the way back. */
export function notDone(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, message: string) {
  return ctx.render(
    request,
    reply,
    t("Not done", "Yapılmadı"),
    html`<p class="error" role="alert">${message}</p><p class="actions"><a href="${DASHBOARD}">${t("Back to the dashboard", "Panele dön")}</a></p>`,
    400,
  );
}
