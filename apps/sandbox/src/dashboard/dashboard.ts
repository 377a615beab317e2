import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { UNKNOWN_KEY } from "../api-keys/api-keys.js";
import { workspaceScope } from "../clock.js";
import { applyElapsedTime } from "../payments/elapsed-time.js";
import { workspaceTag } from "../payments/seed.js";
import { registerBackOfficePages, STATEMENT_FILE_SCRIPT } from "./back-office-pages.js";
import type { DashboardContext, DashboardDeps } from "./context.js";
import {
  checkSessionToken,
  DashboardSessions,
  fromThisOrigin,
  isFormBody,
  SECURITY_HEADERS,
  sameText,
} from "./dashboard-security.js";
import { registerFaultsPage } from "./faults-page.js";
import { DashboardFlash, type Flash } from "./flash.js";
import { formField, queryField } from "./form-fields.js";
import { registerGatewayPage } from "./gateway-page.js";
import { html, type SafeHtml } from "./html.js";
import { DASHBOARD, page, STYLESHEET } from "./layout.js";
import { registerMailAndExportsPages } from "./mail-and-exports-pages.js";
import { registerNewPaymentPage } from "./new-payment-page.js";
import { registerPaymentExports } from "./payment-exports.js";
import { registerPaymentsPages } from "./payments-pages.js";
import { registerRequestLogPage } from "./request-log-page.js";
import { registerSchedulesPages } from "./schedules-pages.js";
import { registerWorkspaceControls } from "./workspace-controls.js";

export type { DashboardDeps } from "./context.js";

/** htmx, served from the installed package: the dashboard loads nothing from elsewhere. */
async function readHtmx(): Promise<string> {
  const require = createRequire(import.meta.url);
  return readFile(require.resolve("htmx.org/dist/htmx.min.js"), "utf8");
}

const ASSETS = `${DASHBOARD}/assets/`;

/** What an error page says, by status: never what was sent. */
function errorMessage(status: number): string {
  if (status === 403) {
    return "This form has expired or did not come from this dashboard. Go back, reload the page and send it again.";
  }
  if (status === 415)
    return "The dashboard takes forms only as HTML forms send them (application/x-www-form-urlencoded).";
  if (status < 500) return "That request could not be read. Go back and try again.";
  return "Something went wrong on our side. Reload the page.";
}

/**
 * The sandbox dashboard at /_sandbox/dashboard: a workspace's accounts, payments, request log and
 * sandbox controls, or the gateway's card payments, by hand, in a browser. Server-rendered HTML with
 * server-side sessions (a workspace's API key or the gateway's credentials sign in), a CSRF token
 * bound to the session and an origin check on every form, and headers that forbid framing and inline
 * script.
 */
export async function registerDashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const byTag = new Map(deps.workspaceKeys.map((key) => [workspaceTag(key), key]));
  const sessions = new DashboardSessions(deps.sessions, deps.secret, {
    idleMs: deps.sessionTimeouts.idleSeconds * 1000,
    maxMs: deps.sessionTimeouts.maxSeconds * 1000,
  });
  const flashes = new DashboardFlash(deps.secret);
  const htmx = await readHtmx();
  await app.register(async (dashboard) => {
    await dashboard.register(fastifyCookie);
    await dashboard.register(fastifyFormbody);

    const send = (reply: FastifyReply, body: string, status = 200) =>
      reply.code(status).type("text/html; charset=utf-8").send(body);
    const errorPage = (reply: FastifyReply, status: number) =>
      send(
        reply,
        page(
          "Error",
          html`<p class="error" role="alert">${errorMessage(status)}</p><p><a href="${DASHBOARD}">Back to the dashboard</a></p>`,
        ),
        status,
      );

    // Every error the APIs or Fastify raise carries its status as `statusCode` (Fastify) or `status`
    // (ApiFailure); both are understood, so bad input is a 4xx page, never a 500.
    dashboard.setErrorHandler((error: Error & { statusCode?: number; status?: number }, _request, reply) => {
      const given = error.statusCode ?? error.status ?? 500;
      return errorPage(reply, given >= 400 && given < 500 ? given : 500);
    });

    dashboard.decorateRequest("dashboardKey", "");
    dashboard.decorateRequest("dashboardSession", undefined);
    dashboard.addHook("onRequest", async (request, reply) => {
      reply.headers(SECURITY_HEADERS);
      if (request.method === "POST") {
        if (!fromThisOrigin(request)) return errorPage(reply, 403);
        // Refused before any parser runs: a JSON, XML or multipart body never reaches a form handler.
        if (!isFormBody(request)) return errorPage(reply, 415);
      }
      // The dashboard's own script and stylesheet are the same for everyone: no session to look up.
      if (request.url.startsWith(ASSETS)) return undefined;
      const session = await sessions.current(request);
      if (session) {
        request.dashboardSession = session;
        if (session.subject.kind === "workspace") request.dashboardKey = byTag.get(session.subject.tag) ?? "";
      }
      return undefined;
    });
    // The synchronizer token: every form but sign-in carries its session's token.
    dashboard.addHook("preHandler", async (request, reply) => {
      if (request.method !== "POST") return undefined;
      const token = formField(request, "_csrf");
      const valid =
        request.url.split("?", 1)[0] === `${DASHBOARD}/sign-in`
          ? sessions.checkSignInToken(request, token)
          : checkSessionToken(request.dashboardSession, token);
      return valid ? undefined : errorPage(reply, 403);
    });

    const ctx: DashboardContext = {
      deps,
      app,
      requireSession: async (request, reply) => {
        if (request.dashboardKey) return;
        // Sign-in brings the browser back to the page it asked for.
        const next = request.method === "GET" ? nextPage(request.url) : undefined;
        await reply.redirect(next ? `${DASHBOARD}?next=${encodeURIComponent(next)}` : DASHBOARD, 303);
      },
      requireGatewaySession: async (request, reply) => {
        if (request.dashboardSession?.subject.kind !== "gateway") await reply.redirect(DASHBOARD, 303);
      },
      csrf: (request) => request.dashboardSession?.csrfToken ?? "",
      render: (request, reply, title, content, status) => {
        const subject = request.dashboardSession?.subject;
        const who = subject?.kind === "workspace" ? { workspace: subject.tag } : { gateway: true as const };
        const flash = request.method === "GET" ? flashes.take(request, reply) : undefined;
        return send(reply, page(title, html`${flashed(flash)}${content}`, { ...who, csrf: ctx.csrf(request) }), status);
      },
      redirect: (request, reply, path, flash) => {
        if (flash) flashes.set(request, reply, flash);
        return reply.redirect(path, 303);
      },
      catchUp: async (key) =>
        applyElapsedTime(deps.payments, key, await deps.clocks.now(workspaceScope(key)), deps.completeAfterMs),
      control: (key, method, url, body) => {
        const csv = Buffer.isBuffer(body);
        return app.inject({
          method,
          url,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body ? { "content-type": csv ? "text/csv" : "application/json" } : {}),
          },
          ...(body ? { payload: csv ? body : JSON.stringify(body) } : {}),
        });
      },
    };

    const signInPage = (request: FastifyRequest, reply: FastifyReply, error?: string) => {
      // A reset ends every session of the workspace, the resetting one's too: say so where it lands.
      const notice = queryField(request, "done") === "reset" ? RESET_NOTICE : undefined;
      return send(
        reply,
        page(
          "Sign in",
          signInForms(
            sessions.signInToken(request, reply),
            error,
            notice,
            nextPage(queryField(request, "next") ?? formField(request, "next")),
          ),
        ),
        error ? 401 : 200,
      );
    };

    dashboard.get(`${ASSETS}htmx.min.js`, async (_request, reply) =>
      reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(htmx),
    );
    dashboard.get(`${ASSETS}statement-file.js`, async (_request, reply) =>
      reply
        .type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .send(STATEMENT_FILE_SCRIPT),
    );
    dashboard.get(`${ASSETS}dashboard.css`, async (_request, reply) =>
      reply.type("text/css; charset=utf-8").header("cache-control", "public, max-age=3600").send(STYLESHEET),
    );

    dashboard.post(`${DASHBOARD}/sign-in`, async (request, reply) => {
      const key = formField(request, "apiKey");
      const gatewayKey = formField(request, "gatewayKey");
      if (key !== undefined) {
        const signedIn = await deps.apiKeys.authenticate(key);
        if (!signedIn.ok) {
          // An expired or revoked key hears why; any other, what to use instead.
          const unknown = "That is not the API key of a workspace of this sandbox. Use one it printed at start.";
          return signInPage(request, reply, signedIn.message === UNKNOWN_KEY ? unknown : signedIn.message);
        }
        await sessions.signIn(request, reply, { kind: "workspace", tag: workspaceTag(signedIn.workspace) });
        return reply.redirect(nextPage(formField(request, "next")) ?? DASHBOARD, 303);
      }
      const secret = formField(request, "gatewaySecret") ?? "";
      if (
        gatewayKey === undefined ||
        !sameText(gatewayKey, deps.gatewayCredentials.key) ||
        !sameText(secret, deps.gatewayCredentials.secret)
      ) {
        return signInPage(
          request,
          reply,
          "Those are not the gateway's API key and secret. Use the ones of its Basic login.",
        );
      }
      await sessions.signIn(request, reply, { kind: "gateway" });
      return reply.redirect(`${DASHBOARD}/gateway`, 303);
    });

    dashboard.post(`${DASHBOARD}/sign-out`, async (request, reply) => {
      await sessions.signOut(request, reply);
      return reply.redirect(DASHBOARD, 303);
    });

    // Any other dashboard address: an HTML page that says so (with the dashboard's headers), not the APIs' JSON.
    dashboard.all(`${DASHBOARD}/*`, async (_request, reply) =>
      send(
        reply,
        page(
          "Not found",
          html`<p class="error" role="alert">There is no such dashboard page.</p><p><a href="${DASHBOARD}">Go to the dashboard</a></p>`,
        ),
        404,
      ),
    );

    registerPaymentsPages(dashboard, ctx, (request: FastifyRequest, reply: FastifyReply) =>
      request.dashboardSession?.subject.kind === "gateway"
        ? reply.redirect(`${DASHBOARD}/gateway`, 303)
        : signInPage(request, reply),
    );
    registerNewPaymentPage(dashboard, ctx);
    registerPaymentExports(dashboard, ctx);
    registerMailAndExportsPages(dashboard, ctx);
    registerSchedulesPages(dashboard, ctx);
    registerWorkspaceControls(dashboard, ctx);
    registerRequestLogPage(dashboard, ctx);
    registerGatewayPage(dashboard, ctx);
    registerBackOfficePages(dashboard, ctx);
    registerFaultsPage(dashboard, ctx);
  });
}

/** An action's outcome on the page it redirected to (see Flash). */
function flashed(flash: Flash | undefined): SafeHtml | "" {
  if (!flash) return "";
  return html`${flash.error ? html`<p class="error" role="alert">${flash.error}</p>` : ""}${
    flash.notice || flash.once
      ? html`<div class="notice" role="status">${flash.notice ? html`<p>${flash.notice}</p>` : ""}${
          flash.once ? html`<p>${flash.once.label} <code id="${flash.once.id}">${flash.once.value}</code></p>` : ""
        }</div>`
      : ""
  }`;
}

const RESET_NOTICE = "The workspace was reset, which ends every session of it. Sign in again.";

/**
 * Where sign-in may send the browser back to: a page under the dashboard once the path is resolved as
 * a browser resolves it (dot segments, percent-encoded dots), or nowhere (no open redirect, not even
 * to another page of this origin). The normalised form is what is used, so what is checked is what
 * the browser will load.
 */
function nextPage(raw: string | undefined): string | undefined {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || !/^[\x21-\x7e]+$/.test(raw))
    return undefined;
  const base = "http://dashboard.invalid";
  let resolved: URL;
  try {
    resolved = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (resolved.origin !== base || !resolved.pathname.startsWith(`${DASHBOARD}/`)) return undefined;
  return `${resolved.pathname}${resolved.search}`;
}

function signInForms(csrf: string, error?: string, notice?: string, next?: string): SafeHtml {
  const token = html`<input type="hidden" name="_csrf" value="${csrf}">${
    next ? html`<input type="hidden" name="next" value="${next}">` : ""
  }`;
  const described = error ? html`aria-describedby="sign-in-error"` : "";
  return html`${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : ""}
  ${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
  <section aria-labelledby="workspace-sign-in"><h2 id="workspace-sign-in">A payments workspace</h2>
  <form method="post" action="${DASHBOARD}/sign-in">${token}
    <label>Workspace API key (a sandbox key, such as sk_sandbox_demo_1)
      <input name="apiKey" type="password" autocomplete="off" required ${described}></label>
    <p><button type="submit">Sign in</button></p>
  </form></section>
  <section aria-labelledby="gateway-sign-in"><h2 id="gateway-sign-in">The card gateway</h2>
  <p>The gateway's card payments and reports are shown only to its own credentials (those of its Basic login).</p>
  <form method="post" action="${DASHBOARD}/sign-in">${token}
    <label>Gateway API key <input name="gatewayKey" autocomplete="off" required></label>
    <label>Gateway secret <input name="gatewaySecret" type="password" autocomplete="off" required></label>
    <p><button type="submit">Sign in to the gateway</button></p>
  </form></section>`;
}
