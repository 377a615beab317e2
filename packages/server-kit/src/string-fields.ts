import { ApiFailure } from "./api-failure.js";

/** Where in a parsed body something was found: keys and array indices, outermost first. */
type FieldPath = (string | number)[];

/**
 * The path to the first key or string for which `bad` holds, or undefined. It runs over every body
 * on the request path, so it builds no path text on the way down: only once something is found.
 */
function badFieldPath(value: unknown, bad: (text: string) => boolean): FieldPath | undefined {
  if (typeof value === "string") return bad(value) ? [] : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badFieldPath(value[i], bad);
      if (found) {
        found.unshift(i);
        return found;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (bad(key)) return [];
    const found = badFieldPath((value as Record<string, unknown>)[key], bad);
    if (found) {
      found.unshift(key);
      return found;
    }
  }
  return undefined;
}

/**
 * The dotted path of the first key or string in a parsed body for which `bad` holds (a key that is
 * bad names its parent), or undefined. Used to name the field at fault without quoting it.
 */
export function firstStringField(value: unknown, bad: (text: string) => boolean, path = ""): string | undefined {
  const found = badFieldPath(value, bad);
  if (found === undefined) return undefined;
  let named = path;
  for (const step of found) named = typeof step === "number" ? `${named}[${step}]` : named ? `${named}.${step}` : step;
  return named || "body";
}

/**
 * Text a database can keep exactly: no NUL (PostgreSQL's text refuses it) and no lone UTF-16
 * surrogate (UTF-8 cannot encode one; it would be stored as U+FFFD, not as sent).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The first field (see firstStringField) holding text no database can keep exactly. */
export function firstUnstorableField(value: unknown, path = ""): string | undefined {
  return firstStringField(value, (text) => !isStorableText(text), path);
}

/** Refuses (400, naming the field, never quoting it) a value holding text no database can keep. */
export function assertStorableText(value: unknown): void {
  const field = firstUnstorableField(value);
  if (field) {
    throw new ApiFailure(
      "invalid_request",
      `${field}: contains a NUL character or a lone surrogate, which no text can hold; remove it.`,
      { param: field },
    );
  }
}
