/**
 * Spaces the run's requests to at most `perSecond` (--rate-limit), for the whole run: a server with
 * rate limits answers the run's requests, not 429s that differ from run to run.
 */
export class RequestPacing {
  #next = 0;

  constructor(readonly perSecond: number) {}

  async take(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.#next);
    this.#next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

/** The longest the run waits for one Retry-After by default, and how many times it waits for one request. */
export const RETRY_AFTER_CAP_MS = 30_000;
export const RETRY_AFTER_ATTEMPTS = 3;

/**
 * How long a 429 or 503 asks the client to wait (Retry-After in seconds or as an HTTP date); undefined
 * when it does not say (a 503 without it is an answer to judge, not a pause).
 */
export function retryAfterMs(status: number, headers: Readonly<Record<string, string>>): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const text = headers["retry-after"];
  if (text === undefined) return status === 429 ? 1_000 : undefined;
  const seconds = /^\d+$/.test(text.trim()) ? Number(text) * 1000 : Date.parse(text) - Date.now();
  if (!Number.isFinite(seconds)) return status === 429 ? 1_000 : undefined;
  return Math.max(0, seconds);
}

/** A string's 32-bit FNV-1a hash: a check's own seed from the run's seed and its id. */
export function checkSeed(runSeed: number, checkId: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${runSeed}\u0000${checkId}`) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
