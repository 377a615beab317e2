import { markRetried } from "./api-error-from-response.js";
import { CALL_TIMEOUT_HEADER } from "./call-options.js";
import { NetworkError, TimeoutError } from "./errors.js";
import { backoffDelay, isIdempotent, type RetryPolicy } from "./retry-policy.js";

export type FetchLike = (request: Request) => Promise<Response>;

export interface ResilientFetchOptions {
  readonly fetch: FetchLike;
  readonly retry: RetryPolicy;
  /** Per attempt. 0 or undefined: no timeout. */
  readonly timeoutMs?: number;
  /** Names the operation in errors; the default is `METHOD pathname`. */
  readonly describe?: (request: Request) => string;
  /**
   * Whether this request may be retried after it may have reached the server (timeouts, 5xx).
   * Defaults to idempotent methods only: a POST that may have created a payment is never repeated.
   */
  readonly mayRepeat?: (request: Request) => boolean;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Connection errors that happen before a single byte of the request leaves the machine. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCode(error: unknown): string | undefined {
  const withCause = error as { code?: string; cause?: { code?: string } };
  return withCause?.cause?.code ?? withCause?.code;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that adds a per-attempt timeout and retries only where it is safe:
 * - any request whose connection was never made (nothing reached the server);
 * - idempotent requests (GET, DELETE, …) on network errors, timeouts and retryable statuses.
 * Everything else is surfaced as a typed error: NetworkError, TimeoutError, or the response itself.
 */
/** A signal that aborts with a TimeoutError after `ms`, held alive by its own timer. */
function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
  timer.unref?.();
  return controller.signal;
}

export function resilientFetch(options: ResilientFetchOptions): FetchLike {
  const sleep = options.sleep ?? defaultSleep;
  const describe = options.describe ?? ((r: Request) => `${r.method} ${new URL(r.url).pathname}`);
  const mayRepeat = options.mayRepeat ?? ((r: Request) => isIdempotent(r.method));
  const { retry } = options;

  return async (given) => {
    // A call's own timeout rides in a header openapi-fetch lets through; it is never sent.
    const callTimeout = Number(given.headers.get(CALL_TIMEOUT_HEADER));
    const request = given.headers.has(CALL_TIMEOUT_HEADER) ? withoutHeader(given, CALL_TIMEOUT_HEADER) : given;
    const timeoutMs = callTimeout > 0 ? callTimeout : options.timeoutMs;
    const operation = describe(request);
    for (let attempt = 0; ; attempt++) {
      const lastAttempt = attempt >= retry.maxRetries;
      // The body of a Request can be read once; every attempt sends its own copy.
      const attemptRequest = lastAttempt ? request : request.clone();
      // A timer of our own, not AbortSignal.timeout: a timeout signal that only AbortSignal.any holds
      // can be garbage-collected before it fires (seen under load: a stalled body then hung for good).
      // The timer keeps its controller alive; unref'd, it never keeps a process running.
      const timeout = timeoutMs ? timeoutSignal(timeoutMs) : undefined;
      const signal = timeout ? AbortSignal.any([request.signal, timeout]) : request.signal;
      let response: Response;
      try {
        response = await options.fetch(new Request(attemptRequest, { signal }));
      } catch (error) {
        if (request.signal.aborted) throw error;
        const timedOut = timeout?.aborted === true;
        const neverSent = !timedOut && NEVER_SENT_CODES.has(errorCode(error) ?? "");
        if (!lastAttempt && (neverSent || mayRepeat(request))) {
          await sleep(backoffDelay(retry, attempt));
          continue;
        }
        if (timedOut) throw new TimeoutError(operation, timeoutMs ?? 0);
        throw new NetworkError(operation, !neverSent, { cause: error });
      }
      if (!lastAttempt && retry.retryOnStatuses.has(response.status) && mayRepeat(request)) {
        await response.body?.cancel();
        await sleep(backoffDelay(retry, attempt, response.headers.get("retry-after")));
        continue;
      }
      // A request that may be repeated is answered only once its whole body is here: a body cut off or
      // stalled mid-way is a lost answer like a broken connection, and is retried the same way, within
      // the same per-attempt timeout. (A create's body is left to the caller: it is never repeated.)
      if (mayRepeat(request)) {
        try {
          response = await whole(response);
        } catch (error) {
          if (request.signal.aborted) throw error;
          const timedOut = timeout?.aborted === true;
          if (!lastAttempt) {
            await sleep(backoffDelay(retry, attempt));
            continue;
          }
          if (timedOut) throw new TimeoutError(operation, timeoutMs ?? 0);
          throw new NetworkError(operation, true, { cause: error });
        }
      }
      if (attempt > 0) markRetried(response);
      return response;
    }
  };
}

/** The request without one of its headers. */
function withoutHeader(request: Request, name: string): Request {
  const headers = new Headers(request.headers);
  headers.delete(name);
  return new Request(request, { headers });
}

/** Statuses whose answer has no body, which a Response built anew must not be given one for. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The response with its body read to the end (or the failure to read it), as a Response again. */
async function whole(response: Response): Promise<Response> {
  const bytes = NO_BODY.has(response.status) ? null : await response.arrayBuffer();
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}
