/** The base of every error a payspec client throws, so one `instanceof` catches them all. */
export class PayspecError extends Error {
  override readonly name: string = "PayspecError";
}

/** The API answered with a non-2xx status. Carries the API's own error code and message. */
export class ApiError extends PayspecError {
  override readonly name = "ApiError";
  constructor(
    /** `METHOD /path/template` of the failed call. */
    readonly operation: string,
    readonly status: number,
    /** The API's error code: a string for the payments API, an integer for the gateway. */
    readonly code: string | number | undefined,
    readonly apiMessage: string | undefined,
    /** The raw response body, parsed as JSON where it was JSON. */
    readonly body: unknown,
  ) {
    super(`${operation} failed with ${status}${code === undefined ? "" : ` (${code})`}: ${apiMessage ?? "no message"}`);
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

/** No response within the client's timeout. The server may still have acted on the request. */
export class TimeoutError extends PayspecError {
  override readonly name = "TimeoutError";
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
  ) {
    super(
      `${operation}: no response within ${timeoutMs} ms. The server may have processed it; check before retrying a create.`,
    );
  }
}

/** One problem found by a validator: the field (dotted path) and what is wrong with it. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
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
