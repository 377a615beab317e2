/** What one call may set for itself, on top of the client's own settings (stripe-node's per-request options). */
export interface CallOptions {
  /** Aborts the call and its retries when it fires: the call rejects at once (a TimeoutError without timeoutMs). */
  readonly signal?: AbortSignal;
  /** This call's per-attempt timeout in ms, instead of the client's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** Headers sent with this call only (a trace id, say); the client's authorization cannot be replaced. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What came with an answer: every result a client method returns carries it as `lastResponse`. */
export interface ResponseInfo {
  /** The server's `x-request-id`, for support tickets and log searches. */
  readonly requestId: string | undefined;
  readonly status: number;
  readonly headers: Headers;
}

/** A result with its answer's details, on a property JSON.stringify and spreads leave out. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

/**
 * The request header that carries a call's own timeout to the transport (resilientFetch), which
 * takes it off before anything is sent: openapi-fetch builds the Request, so the header is how a
 * per-call setting reaches the layer that times attempts.
 */
export const CALL_TIMEOUT_HEADER = "x-payspec-call-timeout-ms";

/** The `init` of an openapi-fetch call for these options. */
export function callInit(options: CallOptions = {}): { signal?: AbortSignal; headers?: Record<string, string> } {
  const headers: Record<string, string> = { ...options.headers };
  for (const name of Object.keys(headers))
    if (name.toLowerCase() === "authorization")
      throw new TypeError("Per-call headers cannot replace the client's Authorization.");
  if (options.timeoutMs !== undefined) {
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0)
      throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${options.timeoutMs}.`);
    headers[CALL_TIMEOUT_HEADER] = String(options.timeoutMs);
  }
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** `data` with its response's details (or those of the answer it came in) attached as a non-enumerable `lastResponse`. */
export function withResponse<T>(data: T, response: Response | ResponseInfo): WithResponse<T> {
  const target = (typeof data === "object" && data !== null ? data : Object(data)) as T;
  const info: ResponseInfo =
    response instanceof Response
      ? {
          requestId: response.headers.get("x-request-id") ?? undefined,
          status: response.status,
          headers: response.headers,
        }
      : response;
  Object.defineProperty(target, "lastResponse", { value: info, enumerable: false, configurable: true });
  return target as WithResponse<T>;
}
