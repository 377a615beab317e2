/** `%34` is "4": a card number can hide in a URL as percent-encoded digits. */
const PERCENT_ENCODED_DIGIT = /%3([0-9])/gi;

/** 13 or more digits, possibly grouped by single spaces or dashes ("4543 5900 0000 0006"). */
const DIGIT_RUN = /\d(?:[ -]?\d){12,}/g;

function mask(run: string): string {
  const digits = run.replace(/[ -]/g, "");
  return `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/**
 * Masks anything in a text that could be a card number to its first six and last four digits,
 * including percent-encoded and grouped forms. Used on every error message, logged path and banner,
 * because those are the places where text a caller sent can come back out.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(PERCENT_ENCODED_DIGIT, "$1").replace(DIGIT_RUN, mask);
}

/**
 * A text (a JSON body, a report line) with card data made safe to show: anything that could be a card
 * number masked, and CVCs dropped whether sent as text or as a number (`"cvc": 1234`).
 */
export function redactCardData(text: string): string {
  return maskCardNumbers(text).replace(/"(cvc2?|cvv2?)"\s*:\s*("[^"]*"|-?[\d.eE+-]+)/gi, '"$1":"***"');
}
