import type { Locale } from "./locale.js";

/** Amounts grouped by spaces (a space, a no-break space, a narrow no-break space, as Intl writes). */
const SPACE_GROUPED = /^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$/;

/**
 * An amount as a person types it, as a plain decimal ("1500.75"), or undefined when it is not one.
 * Turkish writes `1.500,75` (a comma before the decimals, dots between thousands), English
 * `1,500.75`; both take `1 500`, a bare `1500`, and the other language's decimal point where it
 * cannot be a thousands separator, which is always followed by exactly three digits (`1250.50` in
 * Turkish, `100,50` in English). A minus sign is kept, for the API's own rule to refuse.
 */
export function typedAmount(typed: string, locale: Locale): string | undefined {
  let text = typed.trim();
  // A money sign or code before or after, as the page writes amounts (₺1.500,75, 1.500,75 TL, $1,500.75).
  text = withoutCurrency(text).text;
  if (/[ \u00a0\u202f]/.test(text)) {
    if (!SPACE_GROUPED.test(text)) return undefined;
    text = text.replace(/[ \u00a0\u202f]/g, "");
  }
  const match = /^(-?)(\d[\d.,]*)$/.exec(text);
  if (!match) return undefined;
  const sign = match[1] ?? "";
  const number = match[2] ?? "";
  const [decimalMark, groupMark] = locale === "tr" ? [",", "."] : [".", ","];
  let whole = number;
  let fraction = "";
  const decimalAt = number.lastIndexOf(decimalMark);
  const groupAt = number.indexOf(groupMark);
  if (decimalAt >= 0) {
    whole = number.slice(0, decimalAt);
    fraction = number.slice(decimalAt + 1);
  } else if (groupAt >= 0 && groupAt === number.lastIndexOf(groupMark) && !/^\d{3}$/.test(number.slice(groupAt + 1))) {
    whole = number.slice(0, groupAt);
    fraction = number.slice(groupAt + 1);
  }
  if (fraction !== "" || decimalAt >= 0) {
    if (!/^\d+$/.test(fraction)) return undefined;
  }
  const grouped = groupMark === "." ? /^\d{1,3}(?:\.\d{3})+$/ : /^\d{1,3}(?:,\d{3})+$/;
  if (!/^\d+$/.test(whole) && !grouped.test(whole)) return undefined;
  return `${sign}${whole.replaceAll(groupMark, "")}${fraction ? `.${fraction}` : ""}`;
}

/** Money signs and the words people write beside amounts, by the currency they name. */
const SIGNS: Readonly<Record<string, string>> = { "₺": "TRY", TL: "TRY", $: "USD", "€": "EUR", "£": "GBP" };
const AFFIX =
  /^(?<before>[₺$€£]|(?:TL|[A-Z]{3})(?=[\s\u00a0\u202f\d-]))?[\s\u00a0\u202f]*(?<amount>.*?)[\s\u00a0\u202f]*(?<after>[₺$€£]|TL|[A-Z]{3})?$/i;

/** The amount without a money sign or currency code before or after it, and the currency that named. */
function withoutCurrency(text: string): { text: string; currency?: string } {
  const match = AFFIX.exec(text);
  const sign = match?.groups?.before ?? match?.groups?.after;
  if (!match?.groups || sign === undefined || (match.groups.before && match.groups.after)) return { text };
  const upper = sign.toUpperCase();
  return { text: match.groups.amount ?? "", currency: SIGNS[sign] ?? SIGNS[upper] ?? upper };
}

/** What an amount as typed says: a decimal (and the currency it named, if any), or why it says none. */
export type AmountReading =
  | { readonly kind: "amount"; readonly decimal: string; readonly currency?: string }
  /** Read one way in the page's language and another in the other (`1,500` on a Turkish page): never guessed. */
  | { readonly kind: "ambiguous"; readonly asDecimals: string; readonly asThousands: string }
  | { readonly kind: "unreadable" };

/**
 * An amount as a person types it, as `typedAmount` reads it, and what it leaves open: `1,500` on a
 * Turkish page is 1,50 (its decimals) or 1.500 (an English thousands separator), `1.500` on an
 * English page likewise; those are refused with both readings rather than taken one way.
 */
export function readAmount(typed: string, locale: Locale): AmountReading {
  const { text, currency } = withoutCurrency(typed.trim());
  const decimalMark = locale === "tr" ? "," : ".";
  const either = new RegExp(`^(-?)(\\d{1,3})\\${decimalMark}(\\d{3})$`).exec(text);
  if (either) {
    const [, sign, whole, three] = either as unknown as [string, string, string, string];
    return { kind: "ambiguous", asDecimals: `${sign}${whole}.${three}`, asThousands: `${sign}${whole}${three}` };
  }
  const decimal = typedAmount(text, locale);
  if (decimal === undefined) return { kind: "unreadable" };
  return { kind: "amount", decimal, ...(currency ? { currency } : {}) };
}
