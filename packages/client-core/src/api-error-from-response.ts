import { ApiError } from "./errors.js";

/**
 * Reads a failed response into an ApiError. Both APIs answer failures with JSON carrying `code` and
 * `message`; anything else (an HTML error page from a proxy, an empty body) is kept raw in `body`.
 */
export async function apiErrorFromResponse(operation: string, response: Response): Promise<ApiError> {
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
  return new ApiError(operation, response.status, code, message, body);
}
