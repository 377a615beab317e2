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
