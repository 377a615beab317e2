import { ApiError } from "./errors.js";

/** Builds the ApiError a client throws; each client passes its own subclass's constructor. */
export type ApiErrorFactory = (...args: ConstructorParameters<typeof ApiError>) => ApiError;

const plainApiError: ApiErrorFactory = (...args) => new ApiError(...args);

const retriedResponses = new WeakSet<Response>();

/** Marks a response as the answer to a request that was sent more than once. */
export function markRetried(response: Response): void {
  retriedResponses.add(response);
}

/**
 * Reads a failed response into an ApiError. Both APIs answer failures with JSON carrying `code` and
 * `message`; anything else (an HTML error page from a proxy, an empty body) is kept raw in `body`.
 */
export async function apiErrorFromResponse(
  operation: string,
  response: Response,
  create: ApiErrorFactory = plainApiError,
): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text so the caller can still see what came back.
  }
  const fields = (typeof body === "object" && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  const code = typeof fields.code === "string" || typeof fields.code === "number" ? fields.code : undefined;
  const message =
    typeof fields.message === "string"
      ? fields.message
      : typeof body === "string" && body
        ? body.slice(0, 200)
        : undefined;
  return create(operation, response.status, code, message, body, {
    requestId: response.headers.get("x-request-id") ?? undefined,
    retried: retriedResponses.has(response),
  });
}
