import type { FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext } from "./context.js";
import { formField } from "./form-fields.js";
import { html, type SafeHtml } from "./html.js";

/** What a confirmation asks, and where each answer goes. */
export interface Confirmation {
  readonly title: string;
  /** The question, naming what will happen and that it cannot be undone. */
  readonly question: SafeHtml | string;
  /** The button that does it (styled as destructive). */
  readonly confirm: string;
  /** The page to go back to, doing nothing. */
  readonly back: string;
  readonly backLabel: string;
  /** Fields the action needs again (such as the status to force). */
  readonly fields?: Readonly<Record<string, string>>;
}

/** Whether an irreversible action's form came from its confirmation page (`confirm=yes`). */
export function confirmed(request: FastifyRequest): boolean {
  return formField(request, "confirm") === "yes";
}

/**
 * The confirmation step of an irreversible action: the same form again, with `confirm=yes`, behind a
 * button styled as destructive, and a way back that does nothing. Works without script.
 */
export function confirmPage(
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  { title, question, confirm, back, backLabel, fields = {} }: Confirmation,
): FastifyReply {
  const action = request.url.split("?", 1)[0] ?? "";
  return ctx.render(
    request,
    reply,
    title,
    html`<form method="post" action="${action}" class="confirm" aria-labelledby="confirm-question">
      <input type="hidden" name="_csrf" value="${ctx.csrf(request)}"><input type="hidden" name="confirm" value="yes">
      ${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
      <p id="confirm-question">${question}</p>
      <p><button type="submit" class="danger">${confirm}</button> <a href="${back}">${backLabel}</a></p>
    </form>`,
  );
}
