import { ApiFailure } from "./api-failure.js";

/**
 * The dotted path of the first key or string in a parsed body for which `bad` holds (a key that is
 * bad names its parent), or undefined. Used to name the field at fault without quoting it.
 */
export function firstStringField(value: unknown, bad: (text: string) => boolean, path = ""): string | undefined {
  if (typeof value === "string") return bad(value) ? path || "body" : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstStringField(item, bad, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (bad(key)) return path || "body";
      const found = firstStringField(item, bad, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
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
