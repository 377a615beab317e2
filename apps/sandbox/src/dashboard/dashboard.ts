import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { workspaceScope } from "../clock.js";
import { workspaceTag } from "../payments/seed.js";
import type { DashboardContext, DashboardDeps } from "./context.js";
import { formField } from "./form-fields.js";
import { registerGatewayPage } from "./gateway-page.js";
import { html, type SafeHtml } from "./html.js";
import { DASHBOARD, page } from "./layout.js";
import { registerNewPaymentPage } from "./new-payment-page.js";
import { registerPaymentExports } from "./payment-exports.js";
import { registerPaymentsPages } from "./payments-pages.js";
import { registerRequestLogPage } from "./request-log-page.js";
import { registerWorkspaceControls } from "./workspace-controls.js";

export type { DashboardDeps } from "./context.js";

const SESSION_COOKIE = "payspec_dashboard_session";
/** Cookies never leave the dashboard's path, are invisible to scripts, and are never sent cross-site. */
const COOKIE_OPTIONS = { path: DASHBOARD, httpOnly: true, sameSite: "strict", signed: true } as const;

/** htmx, served from the installed package: the dashboard loads nothing from elsewhere. */
async function readHtmx(): Promise<string> {
  const require = createRequire(import.meta.url);
  return readFile(require.resolve("htmx.org/dist/htmx.min.js"), "utf8");
}

/**
 * The sandbox dashboard at /_sandbox/dashboard: a workspace's accounts, payments, request log and
 * sandbox controls, by hand, in a browser. Server-rendered HTML, one workspace per session: the
 * session cookie holds the workspace's tag (signed with the sandbox secret), never its key. Every
 * form carries a CSRF token.
 */
export async function registerDashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const byTag = new Map(deps.apiKeys.map((key) => [workspaceTag(key), key]));
  const htmx = await readHtmx();
  await app.register(async (dashboard) => {
    await dashboard.register(fastifyCookie, { secret: deps.secret.digest("dashboard-cookie", "v1").toString("hex") });
    await dashboard.register(fastifyFormbody);
    await dashboard.register(fastifyCsrf, {
      cookieOpts: COOKIE_OPTIONS,
      getToken: (request) => formField(request, "_csrf"),
    });
    dashboard.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      const message =
        status === 403
          ? "This form has expired or did not come from this dashboard. Go back, reload the page and send it again."
          : status < 500
            ? "That request could not be read. Go back and try again."
            : "Something went wrong on our side. Reload the page.";
      return reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(
          page(
            "Error",
            html`<p class="error" role="alert">${message}</p><p><a href="${DASHBOARD}">Back to the dashboard</a></p>`,
          ),
        );
    });

    dashboard.decorateRequest("dashboardKey", "");
    dashboard.addHook("onRequest", async (request) => {
      const raw = request.cookies[SESSION_COOKIE];
      const unsigned = raw ? request.unsignCookie(raw) : undefined;
      request.dashboardKey = (unsigned?.valid && unsigned.value && byTag.get(unsigned.value)) || "";
    });

    const send = (reply: FastifyReply, body: string, status = 200) =>
      reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

    const ctx: DashboardContext = {
      deps,
      app,
      requireSession: async (request, reply) => {
        if (!request.dashboardKey) await reply.redirect(DASHBOARD, 303);
      },
      render: (request, reply, title, content, status) =>
        send(
          reply,
          page(title, content, { workspace: workspaceTag(request.dashboardKey), csrf: reply.generateCsrf() }),
          status,
        ),
      completeDue: async (key) =>
        deps.payments.completeDue(key, await deps.clocks.now(workspaceScope(key)), deps.completeAfterMs),
      control: (key, method, url, body) =>
        app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        }),
    };

    const signInPage = (reply: FastifyReply, error?: string) =>
      send(reply, page("Sign in", signInForm(reply.generateCsrf(), error)), error ? 401 : 200);

    dashboard.get(`${DASHBOARD}/assets/htmx.min.js`, async (_request, reply) =>
      reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(htmx),
    );

    dashboard.post(`${DASHBOARD}/sign-in`, { preHandler: dashboard.csrfProtection }, async (request, reply) => {
      const key = formField(request, "apiKey") ?? "";
      if (!deps.apiKeys.includes(key)) {
        return signInPage(
          reply,
          "That is not the API key of a workspace of this sandbox. Use one it printed at start.",
        );
      }
      reply.setCookie(SESSION_COOKIE, workspaceTag(key), COOKIE_OPTIONS);
      return reply.redirect(DASHBOARD, 303);
    });

    dashboard.post(`${DASHBOARD}/sign-out`, { preHandler: dashboard.csrfProtection }, async (_request, reply) => {
      reply.clearCookie(SESSION_COOKIE, { path: DASHBOARD });
      return reply.redirect(DASHBOARD, 303);
    });

    registerPaymentsPages(dashboard, ctx, (_request: FastifyRequest, reply: FastifyReply) => signInPage(reply));
    registerNewPaymentPage(dashboard, ctx);
    registerPaymentExports(dashboard, ctx);
    registerWorkspaceControls(dashboard, ctx);
    registerRequestLogPage(dashboard, ctx);
    registerGatewayPage(dashboard, ctx);
  });
}

function signInForm(csrf: string, error?: string): SafeHtml {
  return html`${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : ""}
  <form method="post" action="${DASHBOARD}/sign-in">
    <input type="hidden" name="_csrf" value="${csrf}">
    <label>Workspace API key (a sandbox key, such as sk_sandbox_demo_1)
      <input name="apiKey" type="password" autocomplete="off" required ${error ? html`aria-describedby="sign-in-error"` : ""}></label>
    <p><button type="submit">Sign in</button></p>
  </form>`;
}
