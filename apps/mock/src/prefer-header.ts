/** What a `Prefer` header may ask of the mock (the names Prism's own server reads). */
export interface Preferences {
  readonly code?: number;
  readonly exampleKey?: string;
  readonly dynamic?: boolean;
  readonly seed?: string;
}

/**
 * Reads `Prefer: code=404, example=declined, dynamic=true, seed=7` (RFC 7240: comma-separated
 * preferences, values optionally quoted). Unknown preferences are ignored, as RFC 7240 says; a known
 * one with a value the mock cannot use is an error naming it.
 */
export function parsePrefer(header: string): { ok: true; value: Preferences } | { ok: false; error: string } {
  const value: { code?: number; exampleKey?: string; dynamic?: boolean; seed?: string } = {};
  for (const part of header.split(",")) {
    const [rawName = "", ...rest] = part.split("=");
    const name = rawName.trim().toLowerCase();
    const text = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (!name) continue;
    if (name === "code") {
      if (!/^\d{3}$/.test(text))
        return { ok: false, error: `Prefer code must be a three-digit status, got "${text}".` };
      value.code = Number(text);
    } else if (name === "dynamic") {
      if (text !== "true" && text !== "false") {
        return { ok: false, error: `Prefer dynamic must be true or false, got "${text}".` };
      }
      value.dynamic = text === "true";
    } else if (name === "example") {
      value.exampleKey = text;
    } else if (name === "seed") {
      value.seed = text;
    }
  }
  return { ok: true, value };
}
