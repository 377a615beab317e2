import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { DASHBOARD } from "./layout.js";
import type { SignedInSession } from "./signed-in-session.js";

export const SESSION_COOKIE = "payspec_dashboard_session";
/** The anonymous sign-in form's nonce: its token is an HMAC of it (a signed double-submit, OWASP's login CSRF defence). */
export const SIGN_IN_COOKIE = "payspec_dashboard_sign_in";
/** Cookies never leave the dashboard's path, are invisible to scripts, and are never sent cross-site. */
export const COOKIE_OPTIONS = { path: DASHBOARD, httpOnly: true, sameSite: "strict" } as const;

/**
 * Every dashboard answer: no script but the sandbox's own files, no inline script or style, never in a
 * frame (no clickjacking from another local port), no sniffing, no referrer, nothing cached.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** Equal texts, compared in constant time (tokens, secrets). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Whether an unsafe request came from a page of this dashboard: its `Origin` names this host, or (when
 * the browser sends `Origin: null`, as it must under `Referrer-Policy: no-referrer`) its fetch
 * metadata says same-origin, or its `Referer` names this host. A request with none of them is refused:
 * every browser sends one, and a script that sends none can send `Origin` instead.
 */
export function fromThisOrigin(request: FastifyRequest): boolean {
  const host = request.headers.host;
  const hostOf = (url: string | undefined) => {
    if (!url || url === "null") return undefined;
    try {
      return new URL(url).host;
    } catch {
      return "";
    }
  };
  const origin = hostOf(request.headers.origin);
  if (origin !== undefined) return origin === host;
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string") return site === "same-origin";
  const referer = hostOf(request.headers.referer);
  return referer !== undefined && referer === host;
}

/** A request's media type, lower case, without its parameters ("" when it names none). */
export function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Whether a form was sent as an HTML form sends it (the only body the dashboard reads). */
export function isFormBody(request: FastifyRequest): boolean {
  return mediaTypeOf(request) === "application/x-www-form-urlencoded";
}

/** Whether a form's token is its session's. */
export function checkSessionToken(session: SignedInSession | undefined, token: string | undefined): boolean {
  return Boolean(session && token && sameText(token, session.csrfToken));
}
