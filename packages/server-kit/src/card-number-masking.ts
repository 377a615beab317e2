import { tooDeepAt } from "./json-nesting.js";

/**
 * Card numbers as they hide in text: 13 to 19 digits that pass the Luhn check, written in one piece or
 * in groups separated by a space, dash, dot or plus, any of them (digits included) possibly
 * percent-encoded (`%34%35…`, `%20`, `%2B`): how a PAN looks in a URL, a query string or free text.
 * One finder serves masking (logs, messages, the request log) and refusing (free-text fields), so what
 * is refused and what is masked can never drift apart.
 */
const DIGIT = String.raw`(?:\d|%3\d)`;
const SEPARATOR = String.raw`(?:[ .+\-]|%2[0bde])`;
/** Digit groups joined by single separators: the candidates, split into groups below. */
const GROUPED_RUN = new RegExp(`${DIGIT}+(?:${SEPARATOR}${DIGIT}+)*`, "gi");
/** A run's tokens, left to right: a separator, or a group of digits ("%20" is a separator, not digits). */
const TOKEN = new RegExp(`(${SEPARATOR})|${DIGIT}+`, "gi");

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

function digitsOf(text: string): string {
  return text.replace(/%3(\d)/gi, "$1").replace(/\D/g, "");
}

/** The Luhn checksum every payment card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Where a card number stands in a text: [start, end) and its digits. */
export interface CardNumberMatch {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
}

const isDigitCode = (code: number) => code >= 48 && code <= 57;
/** Space, dot, plus, dash: what may stand between a card number's groups. */
const isSeparatorCode = (code: number) => code === 32 || code === 46 || code === 43 || code === 45;

/**
 * Whether `text` has a stretch of at least 13 digits joined only by separators or percent-escapes:
 * a necessary condition for a card number, checked in one pass without a regular expression. It
 * over-counts (a percent-escape's digits count, doubled separators do not break a stretch), so it
 * never misses a card number; it lets the common case, text with none, skip the full search.
 */
function hasCandidateStretch(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isDigitCode(code)) {
      if (++digits >= MIN_DIGITS) return true;
    } else if (code === 37 /* % */) {
      digits += (isDigitCode(text.charCodeAt(i + 1)) ? 1 : 0) + (isDigitCode(text.charCodeAt(i + 2)) ? 1 : 0);
      if (digits >= MIN_DIGITS) return true;
      i += 2;
    } else if (!isSeparatorCode(code)) {
      digits = 0;
    }
  }
  return false;
}

/**
 * Every card number in `text`. Within a run of groups ("2026-11-22 4543 5900 0000 0006"), each
 * sequence of whole groups is a candidate, longest first, so digits put before or after a card number
 * do not hide it; a single unbroken run of more than 19 digits is not a card number.
 */
export function findCardNumbers(text: string): CardNumberMatch[] {
  const found: CardNumberMatch[] = [];
  if (!hasCandidateStretch(text)) return found;
  for (const run of text.matchAll(GROUPED_RUN)) {
    const groups = [...run[0].matchAll(TOKEN)]
      .filter((g) => g[1] === undefined)
      .map((g) => ({
        start: (run.index ?? 0) + (g.index ?? 0),
        end: (run.index ?? 0) + (g.index ?? 0) + g[0].length,
        digits: digitsOf(g[0]),
      }));
    let i = 0;
    while (i < groups.length) {
      let digits = "";
      let best: CardNumberMatch | undefined;
      let bestEnd = i;
      for (let j = i; j < groups.length; j++) {
        digits += (groups[j] as (typeof groups)[number]).digits;
        if (digits.length > MAX_DIGITS) break;
        if (digits.length >= MIN_DIGITS && passesLuhn(digits)) {
          best = {
            start: (groups[i] as (typeof groups)[number]).start,
            end: (groups[j] as (typeof groups)[number]).end,
            digits,
          };
          bestEnd = j;
        }
      }
      if (best) {
        found.push(best);
        i = bestEnd + 1;
      } else {
        i++;
      }
    }
  }
  return found;
}

/** Whether a text holds a card number (see findCardNumbers). */
export function containsCardNumber(text: string): boolean {
  return findCardNumbers(text).length > 0;
}

function masked(digits: string): string {
  return `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/**
 * Masks every card number in a text to its first six and last four digits (separators and
 * percent-encoding folded into the masked form). Used on every error message, logged path and query,
 * request-log entry and banner: the places where text a caller sent can come back out.
 */
export function maskCardNumbers(text: string): string {
  const matches = findCardNumbers(text);
  if (matches.length === 0) return text;
  let out = "";
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.start) + masked(m.digits);
    at = m.end;
  }
  return out + text.slice(at);
}

/** A field that carries a card verification code, whatever its exact name: cvc, cvv2, card_cvc, cvn… */
const CVC_FIELD = /cv[cvn]/i;
/** A field that carries a card number by name: masked whatever its digits (a mistyped PAN is still a PAN). */
const CARD_NUMBER_FIELD = /card_?number|^pan$/i;
const REMOVED = "***";

function maskedField(value: unknown): unknown {
  if (typeof value !== "string" && typeof value !== "number") return REMOVED;
  const digits = String(value).replace(/\D/g, "");
  return digits.length >= 12 ? masked(digits) : REMOVED;
}

/** Already masked (first six, stars, last four): shown as it is. */
const isMasked = (value: unknown) => typeof value === "string" && /^\d{6}\*+\d{4}$/.test(value);

/**
 * A parsed JSON value made safe to show: every field whose name says it is a verification code
 * replaced, whatever its value (text, number, list, object), a field named as a card number masked
 * whether or not its digits pass the Luhn check, and every card number in any other string masked.
 */
export function redactCardValue(value: unknown): unknown {
  if (typeof value === "string") return maskCardNumbers(value);
  if (Array.isArray(value)) return value.map(redactCardValue);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        maskCardNumbers(key),
        CVC_FIELD.test(key)
          ? REMOVED
          : CARD_NUMBER_FIELD.test(key) && !isMasked(item)
            ? maskedField(item)
            : redactCardValue(item),
      ]),
    );
  }
  return value;
}

/** A CVC-named field in JSON text that does not parse (a cut body): its value up to the next , } or ]. */
const CVC_FIELD_IN_TEXT = /("[^"]*cv[cvn][^"]*"\s*:\s*)("(?:[^"\\]|\\.)*"?|\[[^\]]*\]?|\{[^}]*\}?|[^,}\]]+)/gi;

/**
 * What a text must contain for redactCardData to change it, besides a card-number stretch: a field
 * named as a CVC or a card number, or a JSON \u escape (which could spell either, or digits).
 */
const CARD_DATA_HINT = /cv[cvn]|card_?number|"pan"|\\u/i;

const redactAsText = (text: string) => maskCardNumbers(text.replace(CVC_FIELD_IN_TEXT, `$1"${REMOVED}"`));

/**
 * A text (a JSON body, a report line) with card data made safe to show: JSON is redacted field by
 * field (redactCardValue); text that is not JSON, or is cut short, has its CVC-named fields blanked
 * by pattern and its card numbers masked.
 */
export function redactCardData(text: string): string {
  // Most text holds no card data at all: it is returned as it came, without a parse and a rewrite.
  if (!CARD_DATA_HINT.test(text) && !hasCandidateStretch(text)) return text;
  // redactCardValue recurses: text nested deeper than any body the APIs accept is treated as text.
  if (tooDeepAt(text) !== undefined) return redactAsText(text);
  try {
    return JSON.stringify(redactCardValue(JSON.parse(text)));
  } catch {
    return redactAsText(text);
  }
}
