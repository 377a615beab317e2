import type { ZodType } from "zod";
import { ApiFailure, type FieldError } from "./api-failure.js";

interface Issue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
  readonly maximum?: unknown;
  readonly minimum?: unknown;
}

/** zod's own limit for every integer (±2^53−1), not one the spec sets. */
const isSafeIntegerLimit = (issue: Issue) =>
  (issue.code === "too_big" && issue.maximum === Number.MAX_SAFE_INTEGER) ||
  (issue.code === "too_small" && issue.minimum === Number.MIN_SAFE_INTEGER);

/**
 * One issue per field, in the order zod found the fields: the spec's own bound before zod's integer
 * limit (`<=36`, not `<=9007199254740991`), and that limit, when it is the only one, told as
 * 2^53 − 1 rather than as a 16-digit number a card masker would cut.
 */
function issuePerField(issues: readonly Issue[], wrapped: boolean): Map<string, string> {
  const chosen = new Map<string, Issue>();
  for (const issue of issues) {
    const field = fieldOf(issue, wrapped);
    const held = chosen.get(field);
    if (!held || (isSafeIntegerLimit(held) && !isSafeIntegerLimit(issue))) chosen.set(field, issue);
  }
  const told = (issue: Issue) =>
    !isSafeIntegerLimit(issue)
      ? issue.message
      : issue.code === "too_big"
        ? "Too big: expected a whole number of at most 2^53 − 1"
        : "Too small: expected a whole number of at least −(2^53 − 1)";
  return new Map([...chosen].map(([field, issue]) => [field, told(issue)]));
}

/** The field an issue is about, without the body/query/path wrapper: `card.cardNumber`, `limit`. */
function fieldOf(issue: Issue, wrapped: boolean): string {
  const path = issue.path.slice(wrapped ? 1 : 0).map(String);
  if (issue.code === "unrecognized_keys" && issue.keys?.[0]) path.push(issue.keys[0]);
  return path.join(".") || String(issue.path[0] ?? "body");
}

export type FieldProblems = Readonly<Record<string, string>>;

/**
 * Validates a form's fields (not wrapped in body/query) with a generated zod schema: the parsed data,
 * or every field's first problem, for a form that shows errors beside each field. zod messages never
 * quote the input.
 */
export function validateFields<T>(
  schema: ZodType<T>,
  data: unknown,
): { ok: true; data: T } | { ok: false; problems: FieldProblems } {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problems: Object.fromEntries(issuePerField(result.error.issues as Issue[], false)) };
}

/**
 * Validates a request with the generated zod schema and returns the parsed data (defaults applied).
 * Every problem, one per field, becomes one 400: the message names them all (so a caller learns them
 * at once, not one retry at a time), `param` names the first, and `errors` lists each. zod messages
 * never quote the input, so a card number or CVC is never echoed.
 */
export function parseRequest<T>(schema: ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const errors: FieldError[] = [...issuePerField(result.error.issues as Issue[], true)].map(([field, message]) => ({
    field,
    message,
  }));
  const first = errors[0] as FieldError;
  throw new ApiFailure("invalid_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), {
    param: first.field,
    errors,
  });
}

/** Query strings are text; turns the values of numeric parameters into numbers so the schema can judge them. */
export function coerceNumbers(query: Record<string, unknown>, numeric: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  for (const name of numeric) {
    const value = out[name];
    if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)) out[name] = Number(value);
  }
  return out;
}
