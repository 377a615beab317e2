import type { FastifyRequest } from "fastify";
import type { DashboardContext } from "./context.js";
import { html, type SafeHtml } from "./html.js";

/** The hidden field every dashboard form carries: its session's CSRF token (checked on every POST). */
export function csrfField(ctx: DashboardContext, request: FastifyRequest): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
}
