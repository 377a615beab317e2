import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { holdLocale, isLocale, type Locale, negotiateLocale, runInLocale, t } from "../i18n/locale.js";
import { isDatabaseAway, RETRY_AFTER_SECONDS } from "../postgres/database-unavailable.js";
import type { SandboxSecret } from "../secret/sandbox-secret.js";
import type { DashboardContext, DashboardPages } from "./context.js";
import {
  COOKIE_OPTIONS,
  checkSessionToken,
  fromThisOrigin,
  isFormBody,
  SECURITY_HEADERS,
} from "./dashboard-security.js";
import { isFileForm, registerFileForms } from "./file-forms.js";
import { DashboardFlash, type Flash } from "./flash.js";
import { formField, queryField } from "./form-fields.js";
import { html, type SafeHtml } from "./html.js";
import { DASHBOARD, DASHBOARD_SCRIPT, FAVICON_SVG, LANGUAGE_PATH, page, STYLESHEET } from "./layout.js";
import { postOnlyAddresses } from "./post-only-addresses.js";
import type { SignedInSession } from "./signed-in-session.js";

/** htmx, served from the installed package: the dashboard loads nothing from elsewhere. */
async function readHtmx(): Promise<string> {
  const require = createRequire(import.meta.url);
  return readFile(require.resolve("htmx.org/dist/htmx.min.js"), "utf8");
}

const ASSETS = `${DASHBOARD}/assets/`;

/** What an error page says, by status: never what was sent. */
function errorMessage(status: number): string {
  if (status === 403) {
    return t(
      "This form has expired or did not come from this dashboard. Go back, reload the page and send it again.",
      "Bu formun süresi dolmuş ya da bu panelden gelmemiş. Geri dönün, sayfayı yenileyin ve yeniden gönderin.",
    );
  }
  if (status === 415)
    return t(
      "The dashboard takes forms only as HTML forms send them (application/x-www-form-urlencoded).",
      "Panel formları yalnızca HTML formlarının gönderdiği biçimde alır (application/x-www-form-urlencoded).",
    );
  if (status < 500)
    return t(
      "That request could not be read. Go back and try again.",
      "Bu istek okunamadı. Geri dönüp yeniden deneyin.",
    );
  if (status === 503)
    return t(
      `The sandbox cannot reach its database right now; nothing was done. Reload the page in ${RETRY_AFTER_SECONDS} seconds.`,
      `Sandbox şu anda veritabanına ulaşamıyor; hiçbir işlem yapılmadı. Sayfayı ${RETRY_AFTER_SECONDS} saniye sonra yenileyin.`,
    );
  return t(
    "Something went wrong on our side. Reload the page.",
    "Bizim tarafımızda bir sorun oldu. Sayfayı yenileyin.",
  );
}

/** The cookie that keeps the language chosen with the header's link (a year; it is only a preference). */
const LANGUAGE_COOKIE = "payspec_dashboard_lang";
const LANGUAGE_COOKIE_SECONDS = 365 * 86_400;

/** The language of a dashboard request: the one chosen with the header's link, else the browser's. */
function requestLocale(request: FastifyRequest): Locale {
  const chosen = request.cookies[LANGUAGE_COOKIE];
  return isLocale(chosen) ? chosen : negotiateLocale(request.headers["accept-language"]);
}

export interface DashboardShellOptions {
  /** Signs the flash cookie. */
  readonly secret: SandboxSecret;
  /** The dashboard-sessions feature: the live session a request's cookie names, and the sign-in form's token. */
  readonly sessions: {
    current(request: FastifyRequest): Promise<SignedInSession | undefined>;
    checkSignInToken(request: FastifyRequest, token: string | undefined): boolean;
  };
  /** The sign-in page, for whoever is not signed in (`next`: the page asked for). */
  readonly signInPage: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;
  /** The configured API key of the workspace a session names by its tag. */
  readonly keyOfTag: (tag: string) => string | undefined;
  /** Time's effects applied to a workspace before a page reads it. */
  readonly catchUp: (key: string) => Promise<void>;
  /** Scripts served under /assets/ beside htmx (name → JavaScript): the CSP allows no inline script. */
  readonly scripts: Readonly<Record<string, string>>;
  /** Counts shown in the workspace's navigation, by page path (such as payments waiting for approval). */
  readonly navCounts?: (key: string) => Promise<Readonly<Record<string, number>>>;
  /** Each feature's pages, in the order they are registered. */
  readonly features: readonly DashboardPages[];
}

/** A whole HTML page as the answer. */
export function sendPage(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").send(body);
}

/** A page that says what went wrong, by status, with the way back. */
function errorPage(reply: FastifyReply, status: number): FastifyReply {
  return sendPage(
    reply,
    page(
      t("Error", "Hata"),
      html`<p class="error" role="alert">${errorMessage(status)}</p><p class="actions"><a href="${DASHBOARD}">${t("Back to the dashboard", "Panele dön")}</a></p>`,
    ),
    status,
  );
}

/** Each request in its reader's language, and every error a page in it (bad input a 4xx, never a 500). */
function registerLanguageAndErrors(dashboard: FastifyInstance): void {
  // Everything a request writes (pages, flashes, files) is in its language, held until its response
  // closes (a file streams after the handler returns). The language is entered again once the body
  // is read: the form parser's stream events run outside the request's context.
  dashboard.decorateRequest("dashboardLocale", "en");
  dashboard.addHook("onRequest", (request, reply, done) => {
    request.dashboardLocale = requestLocale(request);
    reply.raw.once("close", holdLocale());
    runInLocale(request.dashboardLocale, done);
  });
  dashboard.addHook("preHandler", (request, _reply, done) => runInLocale(request.dashboardLocale, done));
  // Every error the APIs or Fastify raise carries its status as `statusCode` (Fastify) or `status`
  // (ApiFailure); both are understood, so bad input is a 4xx page, never a 500.
  dashboard.setErrorHandler((error: Error & { statusCode?: number; status?: number }, _request, reply) => {
    if (isDatabaseAway(error)) return errorPage(reply.header("retry-after", String(RETRY_AFTER_SECONDS)), 503);
    const given = error.statusCode ?? error.status ?? 500;
    return errorPage(reply, (given >= 400 && given < 500) || given === 503 ? given : 500);
  });
}

/** Security headers, same-origin form posts only, the session and its CSRF token on every form. */
function registerSessionGuards(dashboard: FastifyInstance, options: DashboardShellOptions): void {
  const { sessions } = options;
  dashboard.decorateRequest("dashboardKey", "");
  dashboard.decorateRequest("dashboardSession", undefined);
  dashboard.decorateRequest("dashboardNavCounts", undefined);
  dashboard.addHook("onRequest", async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (request.method === "POST") {
      if (!fromThisOrigin(request)) return errorPage(reply, 403);
      // Refused before any parser runs: a JSON or XML body never reaches a form handler, nor a
      // multipart one but where a route takes a file.
      if (!isFormBody(request) && !isFileForm(request)) return errorPage(reply, 415);
    }
    // The dashboard's own script and stylesheet are the same for everyone: no session to look up.
    if (request.url.startsWith(ASSETS)) return undefined;
    const session = await sessions.current(request);
    if (session) {
      request.dashboardSession = session;
      if (session.subject.kind === "workspace") request.dashboardKey = options.keyOfTag(session.subject.tag) ?? "";
      if (request.dashboardKey && request.method === "GET" && options.navCounts) {
        request.dashboardNavCounts = await options.navCounts(request.dashboardKey);
      }
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
}

/** What a feature's pages get: sessions, rendering with the flash and the navigation, the control API. */
function dashboardContext(
  app: FastifyInstance,
  options: DashboardShellOptions,
  flashes: DashboardFlash,
): DashboardContext {
  const ctx: DashboardContext = {
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
      const session = {
        ...who,
        csrf: ctx.csrf(request),
        path: request.url,
        ...(request.dashboardNavCounts ? { counts: request.dashboardNavCounts } : {}),
      };
      return sendPage(reply, page(title, html`${flashed(flash)}${content}`, session), status);
    },
    redirect: (request, reply, path, flash) => {
      if (flash) flashes.set(request, reply, flash);
      return reply.redirect(path, 303);
    },
    catchUp: options.catchUp,
    signInPage: options.signInPage,
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
  return ctx;
}

/** The dashboard's own script, stylesheet and icon (htmx's script read once at start). */
function registerAssets(dashboard: FastifyInstance, options: DashboardShellOptions, htmx: string | Buffer): void {
  dashboard.get(`${ASSETS}htmx.min.js`, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(htmx),
  );
  dashboard.get(`${ASSETS}favicon.svg`, async (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=3600").send(FAVICON_SVG),
  );
  for (const [name, script] of Object.entries({ "dashboard.js": DASHBOARD_SCRIPT, ...options.scripts })) {
    dashboard.get(`${ASSETS}${name}`, async (_request, reply) =>
      reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(script),
    );
  }
  dashboard.get(`${ASSETS}dashboard.css`, async (_request, reply) =>
    reply.type("text/css; charset=utf-8").header("cache-control", "public, max-age=3600").send(STYLESHEET),
  );
}

/** Any other address, and the language link: never the APIs' JSON, never an open redirect. */
function registerFallbacks(dashboard: FastifyInstance): void {
  const postOnly = postOnlyAddresses(dashboard);
  // Any other dashboard address: an HTML page that says so (with the dashboard's headers), not the APIs' JSON.
  dashboard.all(`${DASHBOARD}/*`, async (request, reply) => {
    const formPage = request.method === "GET" ? postOnly.pageFor(request.url.split("?", 1)[0] ?? "") : undefined;
    if (formPage) return reply.redirect(formPage, 303);
    return sendPage(
      reply,
      page(
        t("Not found", "Bulunamadı"),
        html`<p class="error" role="alert">${t("There is no such dashboard page.", "Panelde böyle bir sayfa yok.")}</p><p class="actions"><a href="${DASHBOARD}">${t("Go to the dashboard", "Panele git")}</a></p>`,
      ),
      404,
    );
  });

  // The header's language link: the choice is kept in a cookie, and the browser goes back to the
  // page it was on (only a page of the dashboard: no open redirect).
  dashboard.get(LANGUAGE_PATH, async (request, reply) => {
    const to = queryField(request, "to");
    if (isLocale(to)) reply.setCookie(LANGUAGE_COOKIE, to, { ...COOKIE_OPTIONS, maxAge: LANGUAGE_COOKIE_SECONDS });
    return reply.redirect(nextPage(queryField(request, "next")) ?? DASHBOARD, 303);
  });
}

/**
 * The sandbox dashboard at /_sandbox/dashboard: a workspace's accounts, payments, request log and
 * sandbox controls, or the gateway's card payments, by hand, in a browser. Server-rendered HTML with
 * server-side sessions (a workspace's API key or the gateway's credentials sign in), a CSRF token
 * bound to the session and an origin check on every form, and headers that forbid framing and inline
 * script.
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardShellOptions): Promise<void> {
  const flashes = new DashboardFlash(options.secret);
  const htmx = await readHtmx();
  await app.register(async (dashboard) => {
    await dashboard.register(fastifyCookie);
    await dashboard.register(fastifyFormbody);
    await registerFileForms(dashboard);
    registerLanguageAndErrors(dashboard);
    registerSessionGuards(dashboard, options);
    const ctx = dashboardContext(app, options, flashes);
    registerAssets(dashboard, options, htmx);
    registerFallbacks(dashboard);
    for (const pages of options.features) pages(dashboard, ctx);
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

/**
 * Where sign-in may send the browser back to: a page under the dashboard once the path is resolved as
 * a browser resolves it (dot segments, percent-encoded dots), or nowhere (no open redirect, not even
 * to another page of this origin). The normalised form is what is used, so what is checked is what
 * the browser will load.
 */
export function nextPage(raw: string | undefined): string | undefined {
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
