import type { ZodType } from "zod";
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from "./errors.js";

interface ZodIssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

function toIssue(issue: ZodIssueLike): ValidationIssue {
  return { path: issue.path.map(String).join("."), message: issue.message };
}

/**
 * Checks a request against its generated schema before it is sent, so a mistake is reported with the
 * field's name instead of as a 400 from the server. zod messages never quote the input, so a card
 * number or CVC cannot leak into the error.
 */
export function assertValidRequest(operation: string, schema: ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new RequestValidationError(
      operation,
      result.error.issues.map((i) => toIssue(i as ZodIssueLike)),
    );
  }
}

/**
 * Issues a client should live with, as mature SDKs learned to: a value outside a known enum (the
 * server added a status) is passed through. Extra fields are already ignored by the schemas.
 */
const TOLERATED = new Set(["invalid_value"]);

/**
 * Checks a response against its generated schema. Unknown enum values and extra fields pass; a
 * missing required field or a wrong type throws ResponseValidationError. Returns the body unchanged.
 */
export function checkResponse<T>(operation: string, schema: ZodType, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return body as T;
  const serious = result.error.issues.filter((i) => !TOLERATED.has(i.code));
  if (serious.length > 0) {
    throw new ResponseValidationError(
      operation,
      serious.map((i) => toIssue(i as ZodIssueLike)),
      body,
    );
  }
  return body as T;
}
