import type { AccessToken } from "./types.js";

/** Refresh this share of a token's lifetime before it expires, so it does not die in flight… */
const EARLY_REFRESH_SHARE = 0.1;
/** …but never earlier than this: a one-day token need not be replaced hours ahead. */
const MAX_EARLY_REFRESH_MS = 30_000;

/**
 * Holds the current access token. Concurrent callers share one login; a token is refreshed early by
 * a tenth of its lifetime (at most 30 s) when the server said how long it lives (`expiresIn`), so a
 * 20 s token is reused for 18 s rather than costing a login per call, and dropped when a call comes
 * back 401.
 */
export class TokenSession {
  #current: { token: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly login: () => Promise<AccessToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid token, logging in when there is none or it is about to expire. */
  async token(): Promise<string> {
    const current = this.#current;
    if (current && current.refreshAt > this.now()) return current.token;
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
      const lifetimeMs = issued.expiresIn ? issued.expiresIn * 1000 : Number.POSITIVE_INFINITY;
      const early = Math.min(MAX_EARLY_REFRESH_MS, lifetimeMs * EARLY_REFRESH_SHARE);
      this.#current = { token: issued.accessToken, refreshAt: this.now() + lifetimeMs - early };
      return issued.accessToken;
    } finally {
      this.#pending = undefined;
    }
  }
}
