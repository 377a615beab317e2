/** When and how often a client retries. `false` turns retries off. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  readonly maxRetries?: number;
  /** The first backoff ceiling in ms; it doubles each retry. Default 200. */
  readonly baseDelayMs?: number;
  /** The largest backoff in ms, also the cap on a server's Retry-After. Default 5000. */
  readonly maxDelayMs?: number;
  /** Statuses worth retrying on idempotent requests. Default 408, 429, 502, 503, 504. */
  readonly retryOnStatuses?: readonly number[];
}

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly retryOnStatuses: ReadonlySet<number>;
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, retryOnStatuses: new Set() };
  return {
    maxRetries: options?.maxRetries ?? 2,
    baseDelayMs: options?.baseDelayMs ?? 200,
    maxDelayMs: options?.maxDelayMs ?? 5000,
    retryOnStatuses: new Set(options?.retryOnStatuses ?? [408, 429, 502, 503, 504]),
  };
}

/**
 * "Full jitter" exponential backoff: a random delay up to base·2^retry, capped. Spreading retries
 * randomly keeps many clients from hammering a recovering server in lockstep. A server's
 * Retry-After (seconds) wins when given, within the cap.
 */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  retryAfter?: string | null,
  random = Math.random,
): number {
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Methods whose repetition has no further effect, so a retry cannot double an action. */
export function isIdempotent(method: string): boolean {
  return ["GET", "HEAD", "OPTIONS", "DELETE", "PUT"].includes(method.toUpperCase());
}
