import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import type { DashboardContext } from "./context.js";
import { csrfField } from "./csrf-field.js";
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
      ${csrfField(ctx, request)}<input type="hidden" name="confirm" value="yes">
      ${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
      <p id="confirm-question">${question}</p>
      <p class="actions"><button type="submit" class="danger">${confirm}</button> <a href="${back}">${backLabel}</a></p>
    </form>`,
  );
}

/**
 * An irreversible action's address: a POST does it (once confirmed), and a GET of the same address (a
 * bookmark, the back button, the address bar) asks the question again and never acts: its query
 * gives the fields the confirmation's hidden ones would, and a `confirm` there never counts.
 */
export function confirmableAction<Route extends RouteGenericInterface>(
  dashboard: FastifyInstance,
  path: string,
  options: RouteShorthandOptions,
  handler: RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, Route>,
): void {
  dashboard.post<Route>(path, options, handler);
  dashboard.get<Route>(path, options, function askAgain(request, reply) {
    const { confirm: _never, ...fields } = request.query as Record<string, unknown>;
    request.body = fields as Route["Body"];
    return handler.call(this, request, reply);
  });
}
