/** The base of every error a payspec client throws, so one `instanceof` catches them all. */
export class PayspecError extends Error {
  override readonly name: string = "PayspecError";
}

/** What an ApiError knows beyond status and body. */
export interface ApiErrorDetails {
  /** The server's `x-request-id`, for support tickets and log searches. */
  readonly requestId?: string | undefined;
  /** True when the client sent the request more than once (a retry) before this answer. */
  readonly retried?: boolean;
}

/**
 * The API answered with a non-2xx status. Carries the API's own error code and message. Each client
 * throws its own subclass whose `code` is typed as that API's codes (`PaymentsApiError`,
 * `CardGatewayApiError`), so `if (e instanceof PaymentsApiError && e.code === "not_found")` checks.
 */
export class ApiError<Code extends string | number = string | number> extends PayspecError {
  override readonly name: string = "ApiError";
  readonly requestId: string | undefined;
  readonly retried: boolean;
  constructor(
    /** `METHOD /path/template` of the failed call. */
    readonly operation: string,
    readonly status: number,
    /** The API's error code: a string for the payments API, an integer for the gateway. */
    readonly code: Code | undefined,
    readonly apiMessage: string | undefined,
    /** The raw response body, parsed as JSON where it was JSON. */
    readonly body: unknown,
    details: ApiErrorDetails = {},
  ) {
    super(
      `${operation} failed with ${status}${code === undefined ? "" : ` (${code})`}: ${apiMessage ?? "no message"}` +
        (details.requestId ? ` [request ${details.requestId}]` : ""),
    );
    this.requestId = details.requestId;
    this.retried = details.retried ?? false;
  }
}

/**
 * The server answered, but not in the protocol: a body that is not the JSON it announced, a page that
 * says `has_more` without a cursor, a cursor that repeats. Retrying the same call rarely helps.
 */
export class ProtocolError extends PayspecError {
  override readonly name = "ProtocolError";
  constructor(
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
  }
}

/** The request could not be completed on the network. `sent` tells whether the server may have seen it. */
export class NetworkError extends PayspecError {
  override readonly name = "NetworkError";
  constructor(
    readonly operation: string,
    /** False only when the connection was never made, so the server cannot have acted on it. */
    readonly sent: boolean,
    options: { cause: unknown },
  ) {
    super(
      `${operation}: network failure${sent ? "" : " before the request was sent"}: ${describeCause(options.cause)}`,
      options,
    );
  }
}

/**
 * No complete response within the client's timeout (headers or body stalled). The server may still
 * have acted on the request.
 */
export class TimeoutError extends PayspecError {
  override readonly name = "TimeoutError";
  constructor(
    readonly operation: string,
    /** The timeout that ran out, when the client set it (undefined: the caller's own signal). */
    readonly timeoutMs: number | undefined,
  ) {
    super(
      `${operation}: no complete response${timeoutMs === undefined ? "" : ` within ${timeoutMs} ms`}. The server may have processed it; check before retrying a create.`,
    );
  }
}

/** One problem found by a validator: the field (dotted path) and what is wrong with it. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * The client was made with a setting that cannot work (an empty API key, a base URL that is not a
 * URL): thrown by the factory, before any request, naming the setting.
 */
export class ConfigurationError extends PayspecError {
  override readonly name = "ConfigurationError";
  constructor(
    /** The option at fault, as the factory names it (`apiKey`). */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/** Refuses an empty or blank credential at the factory: it would only come back as a 401 per call. */
export function requireCredential(option: string, value: unknown, what: string): void {
  if (typeof value !== "string" || value.trim() === "")
    throw new ConfigurationError(option, `${option} is empty: pass ${what}.`);
}

/** The request broke the spec and was not sent. `issues` names each bad field. */
export class RequestValidationError extends PayspecError {
  override readonly name = "RequestValidationError";
  constructor(
    readonly operation: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${operation}: invalid request, not sent. ${formatIssues(issues)}`);
  }
}

/** The response broke the spec in a way that matters (a missing field or a wrong type). */
export class ResponseValidationError extends PayspecError {
  override readonly name = "ResponseValidationError";
  constructor(
    readonly operation: string,
    readonly issues: readonly ValidationIssue[],
    readonly body: unknown,
  ) {
    super(`${operation}: the response does not match the spec. ${formatIssues(issues)}`);
  }
}

export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || "(body)"}: ${i.message}`).join("; ");
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause.cause as { code?: string } | undefined)?.code ?? (cause as { code?: string }).code;
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

/**
 * Any failure as a PayspecError, so callers need one `instanceof`: errors that escape fetch or
 * openapi-fetch while a body is read (a reset mid-body, a stalled body timing out, JSON that does not
 * parse) become NetworkError, TimeoutError or ProtocolError.
 */
export function toPayspecError(operation: string, error: unknown): PayspecError {
  if (error instanceof PayspecError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError") return new TimeoutError(operation, undefined);
  if (error instanceof SyntaxError) {
    return new ProtocolError(operation, "the response body is not the JSON it announced (cut short or corrupt).", {
      cause: error,
    });
  }
  if (error instanceof TypeError) return new NetworkError(operation, true, { cause: error });
  return new ProtocolError(operation, `unexpected failure: ${describeCause(error)}`, { cause: error });
}
