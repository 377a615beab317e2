import type { AccessToken } from "./types.js";

/** Refresh this long before a known expiry, so a token does not die in flight. */
const EARLY_REFRESH_MS = 30_000;

/**
 * Holds the current access token. Concurrent callers share one login; a token is refreshed early
 * when the server said how long it lives (`expiresIn`), and dropped when a call comes back 401.
 */
export class TokenSession {
  #current: { token: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly login: () => Promise<AccessToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid token, logging in when there is none or it is about to expire. */
  async token(): Promise<string> {
    const current = this.#current;
    if (current && current.expiresAt - EARLY_REFRESH_MS > this.now()) return current.token;
    this.#pending ??= this.#loginOnce();
    return this.#pending;
  }

  /** Forgets `token` if it is still the current one (a 401 proved it dead). */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  async #loginOnce(): Promise<string> {
    try {
      const issued = await this.login();
      const expiresAt = issued.expiresIn ? this.now() + issued.expiresIn * 1000 : Number.POSITIVE_INFINITY;
      this.#current = { token: issued.accessToken, expiresAt };
      return issued.accessToken;
    } finally {
      this.#pending = undefined;
    }
  }
}
