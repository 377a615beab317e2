import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SandboxSecret } from "../secret/sandbox-secret.js";
import { COOKIE_OPTIONS, SESSION_COOKIE } from "./dashboard-security.js";

/**
 * What an action says on the page it redirects to. Every dashboard action answers with a redirect
 * (Post/Redirect/Get), so a reload or a bookmark repeats a GET, never the action.
 */
export interface Flash {
  readonly notice?: string;
  readonly error?: string;
  /** A value shown once (a new API key): on the next page only, which a reload cannot show again. */
  readonly once?: { readonly id: string; readonly label: string; readonly value: string };
}

const FLASH_COOKIE = "payspec_dashboard_flash";
/** Long enough for the redirect to be followed, short enough that an unread one does not linger. */
const FLASH_SECONDS = 120;

/**
 * The flash travels in a cookie, encrypted and bound to the session (its cookie is the additional
 * data), so instances sharing a database and secret can each show it, a script cannot read it, and
 * another session cannot replay it. It is cleared by the first page that shows it.
 */
export class DashboardFlash {
  readonly #key: Buffer;

  constructor(secret: SandboxSecret) {
    this.#key = secret.digest("dashboard-flash", "aes-256-gcm");
  }

  set(request: FastifyRequest, reply: FastifyReply, flash: Flash): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(request.cookies[SESSION_COOKIE] ?? ""));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(flash), "utf8"), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
    reply.setCookie(FLASH_COOKIE, value, { ...COOKIE_OPTIONS, maxAge: FLASH_SECONDS });
  }

  /** The flash waiting for this page, cleared as it is read; undefined when none (or not this session's). */
  take(request: FastifyRequest, reply: FastifyReply): Flash | undefined {
    const value = request.cookies[FLASH_COOKIE];
    if (value === undefined) return undefined;
    reply.clearCookie(FLASH_COOKIE, { path: COOKIE_OPTIONS.path });
    try {
      const bytes = Buffer.from(value, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      decipher.setAAD(Buffer.from(request.cookies[SESSION_COOKIE] ?? ""));
      const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      return JSON.parse(text) as Flash;
    } catch {
      return undefined;
    }
  }
}
