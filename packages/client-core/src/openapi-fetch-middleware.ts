import type { ZodType } from "zod";
import { type ApiErrorFactory, apiErrorFromResponse } from "./api-error-from-response.js";
import { assertValidRequest, checkResponse } from "./validation.js";

/** The part of a generated route table a client needs to validate one operation. */
export interface RouteSchemas {
  readonly data?: ZodType | undefined;
  readonly response?: ZodType | undefined;
}

export interface ValidationOptions {
  /** Check requests against the spec before sending (throws RequestValidationError). Default true. */
  readonly requests?: boolean;
  /** Check JSON responses against the spec (tolerates unknown enum values and extra fields). Default false. */
  readonly responses?: boolean;
}

/** A client's `validate` option: `true`/`false` switch both checks; the default checks requests only. */
export function resolveValidation(validate: boolean | ValidationOptions | undefined): ValidationOptions {
  if (validate === true) return { requests: true, responses: true };
  if (validate === false) return { requests: false, responses: false };
  return validate ?? { requests: true, responses: false };
}

interface MiddlewareRequestContext {
  readonly request: Request;
  readonly schemaPath: string;
  readonly params: { path?: unknown; query?: unknown };
}

interface MiddlewareResponseContext {
  readonly request: Request;
  readonly response: Response;
  readonly schemaPath: string;
}

/**
 * openapi-fetch middleware shared by both clients: optional request validation before sending, a
 * thrown ApiError for every non-2xx (so every call fails the same way), and optional tolerant
 * response validation. Routes are looked up by `METHOD /path/template`.
 */
export function specMiddleware(
  routes: Readonly<Record<string, RouteSchemas>>,
  validate: ValidationOptions = {},
  createApiError?: ApiErrorFactory,
) {
  const routeOf = (method: string, schemaPath: string) => routes[`${method.toUpperCase()} ${schemaPath}`];
  const operationOf = (method: string, schemaPath: string) => `${method.toUpperCase()} ${schemaPath}`;
  return {
    async onRequest({ request, schemaPath, params }: MiddlewareRequestContext) {
      const route = routeOf(request.method, schemaPath);
      if (!(validate.requests ?? true) || !route?.data) return undefined;
      const isJson = request.headers.get("content-type")?.includes("json") ?? false;
      const body = isJson ? await request.clone().json() : undefined;
      const data: Record<string, unknown> = {};
      if (body !== undefined) data.body = body;
      if (params.path !== undefined) data.path = params.path;
      if (params.query !== undefined) data.query = params.query;
      assertValidRequest(operationOf(request.method, schemaPath), route.data, data);
      return undefined;
    },
    async onResponse({ request, response, schemaPath }: MiddlewareResponseContext) {
      const operation = operationOf(request.method, schemaPath);
      if (!response.ok) throw await apiErrorFromResponse(operation, response, createApiError);
      const route = routeOf(request.method, schemaPath);
      const isJson = response.headers.get("content-type")?.includes("json") ?? false;
      if (validate.responses && route?.response && isJson) {
        checkResponse(operation, route.response, await response.clone().json());
      }
      return undefined;
    },
  };
}
