import { toPayspecError } from "./errors.js";

const CALLS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

type AnyCall = (...args: unknown[]) => Promise<unknown>;

async function guarded<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toPayspecError(operation, error);
  }
}

/**
 * The same openapi-fetch client, except that every failure is a PayspecError: openapi-fetch reads
 * bodies itself, so a reset mid-body or corrupt JSON would otherwise reach callers as a raw
 * TypeError or SyntaxError.
 */
export function withTypedErrors<C extends object>(client: C): C {
  const wrapped: Record<string, unknown> = { ...(client as Record<string, unknown>) };
  const methods = client as unknown as Record<string, AnyCall>;
  for (const method of CALLS) {
    const call = methods[method];
    if (typeof call === "function") {
      wrapped[method] = (path: string, ...rest: unknown[]) => guarded(`${method} ${path}`, () => call(path, ...rest));
    }
  }
  const request = methods.request;
  if (typeof request === "function") {
    wrapped.request = (method: string, path: string, ...rest: unknown[]) =>
      guarded(`${String(method).toUpperCase()} ${path}`, () => request(method, path, ...rest));
  }
  return wrapped as C;
}

/** Runs one client helper and turns any failure into a PayspecError naming the operation. */
export const withTypedError = guarded;
