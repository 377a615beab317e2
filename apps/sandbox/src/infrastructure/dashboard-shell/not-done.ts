import type { FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext } from "./context.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";

/** An action of the overview refused (400): why, and the way back. */
export function notDone(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, message: string) {
  return ctx.render(
    request,
    reply,
    "Not done",
    html`<p class="error" role="alert">${message}</p><p><a href="${DASHBOARD}">Back to the dashboard</a></p>`,
    400,
  );
}
