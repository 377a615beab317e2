import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SandboxSecret } from "../sandbox-secret.js";
import type { DashboardSession, SessionStore, SessionSubject } from "../store/index.js";
import { DASHBOARD } from "./layout.js";

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

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

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

/** Whether a form was sent as an HTML form sends it (the only body the dashboard reads). */
export function isFormBody(request: FastifyRequest): boolean {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded";
}

export interface SessionTimeouts {
  readonly idleMs: number;
  readonly maxMs: number;
}

/**
 * Server-side dashboard sessions: the cookie carries a random id; the store keeps its hash, who it is
 * for, its CSRF token (the synchronizer pattern: one per session, new at every sign-in) and its times.
 * Sign-out, a reset and either timeout end it on every instance that shares the store.
 */
export class DashboardSessions {
  readonly #store: SessionStore;
  readonly #secret: SandboxSecret;
  readonly #timeouts: SessionTimeouts;

  constructor(store: SessionStore, secret: SandboxSecret, timeouts: SessionTimeouts) {
    this.#store = store;
    this.#secret = secret;
    this.#timeouts = timeouts;
  }

  /** The live session the request's cookie names, or undefined. */
  async current(request: FastifyRequest): Promise<DashboardSession | undefined> {
    const id = request.cookies[SESSION_COOKIE];
    if (!id) return undefined;
    const now = Date.now();
    return this.#store.use(sha256(id), now, now - this.#timeouts.idleMs, now - this.#timeouts.maxMs);
  }

  /** A new session (a new id and CSRF token), replacing the one the request had. */
  async signIn(request: FastifyRequest, reply: FastifyReply, subject: SessionSubject): Promise<void> {
    await this.signOut(request, reply);
    const id = newToken();
    const now = Date.now();
    await this.#store.create({ idHash: sha256(id), subject, csrfToken: newToken(), createdAt: now, lastSeenAt: now });
    reply.setCookie(SESSION_COOKIE, id, COOKIE_OPTIONS);
    reply.clearCookie(SIGN_IN_COOKIE, { path: DASHBOARD });
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = request.cookies[SESSION_COOKIE];
    if (id) await this.#store.delete(sha256(id));
    reply.clearCookie(SESSION_COOKIE, { path: DASHBOARD });
  }

  endAll(subject: SessionSubject): Promise<void> {
    return this.#store.deleteFor(subject);
  }

  /** The sign-in form's token: an HMAC of a nonce kept in its own cookie (set here when missing). */
  signInToken(request: FastifyRequest, reply: FastifyReply): string {
    let nonce = request.cookies[SIGN_IN_COOKIE];
    if (!nonce) {
      nonce = newToken();
      reply.setCookie(SIGN_IN_COOKIE, nonce, COOKIE_OPTIONS);
    }
    return this.#signInTokenOf(nonce);
  }

  checkSignInToken(request: FastifyRequest, token: string | undefined): boolean {
    const nonce = request.cookies[SIGN_IN_COOKIE];
    return Boolean(nonce && token && sameText(token, this.#signInTokenOf(nonce)));
  }

  #signInTokenOf(nonce: string): string {
    return this.#secret.digest("dashboard-sign-in", nonce).toString("base64url");
  }
}

/** Whether a form's token is its session's. */
export function checkSessionToken(session: DashboardSession | undefined, token: string | undefined): boolean {
  return Boolean(session && token && sameText(token, session.csrfToken));
}
