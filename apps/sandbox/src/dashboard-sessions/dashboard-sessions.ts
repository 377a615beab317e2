import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  COOKIE_OPTIONS,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  sameText,
} from "../infrastructure/dashboard-shell/dashboard-security.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import type { SessionSubject } from "../infrastructure/dashboard-shell/signed-in-session.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import type { DashboardSession, SessionStore } from "./session-store.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

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
