import Big from "big.js";

/**
 * Money conversion without float drift. Values are read as exact decimals (from their shortest
 * decimal form), scaled, and rounded once.
 *
 * Rounding rule: ROUND_HALF_UP, half away from zero, applied only when the input has more decimals
 * than the currency (19.995 TRY -> 2000 kuruş). Pass `{ exact: true }` to reject such input instead.
 */
export interface ConversionOptions {
  /** Throw instead of rounding when the amount has more decimals than the currency allows. */
  readonly exact?: boolean;
}

const exponentCache = new Map<string, number>();

/** ISO 4217 minor-unit exponent of a currency (2 for TRY, 0 for JPY, 3 for KWD), from the runtime's ICU data. */
export function currencyExponent(currency: string): number {
  let exponent = exponentCache.get(currency);
  if (exponent === undefined) {
    if (!/^[A-Z]{3}$/.test(currency))
      throw new RangeError(`"${currency}" is not an ISO 4217 code (three capital letters).`);
    exponent =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponentCache.set(currency, exponent);
  }
  return exponent;
}

/** A plain decimal (no exponent): sign, whole digits, fraction digits. */
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * The common case without big-number arithmetic (servers convert every amount they read and write):
 * a plain decimal with no more decimals than the currency has is scaled by moving its point. The
 * result is the same exact integer Big would give; anything else returns undefined.
 */
function scaledByShift(amount: number | string, exponent: number): number | undefined {
  const match = PLAIN_DECIMAL.exec(typeof amount === "number" ? String(amount) : amount);
  if (!match) return undefined;
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > exponent) return undefined;
  const result = Number(`${sign}${whole}${fraction.padEnd(exponent, "0")}`);
  return Number.isSafeInteger(result) ? result + 0 : undefined;
}

/** Minor units as a plain decimal string with the currency's decimals, by moving the point: 1999 -> "19.99". */
function shiftedPoint(minor: number, exponent: number): string {
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  const sign = minor < 0 ? "-" : "";
  return exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** A decimal amount in major units (number or decimal string) to integer minor units: 19.99 TRY -> 1999. */
export function toMinorUnits(amount: number | string, currency: string, options: ConversionOptions = {}): number {
  const exponent = currencyExponent(currency);
  const shifted = scaledByShift(amount, exponent);
  if (shifted !== undefined) return shifted;
  const scaled = new Big(amount).times(new Big(10).pow(exponent));
  const rounded = scaled.round(0, Big.roundHalfUp);
  if (options.exact && !rounded.eq(scaled)) {
    throw new RangeError(`${amount} ${currency} has more than ${exponent} decimals.`);
  }
  const result = rounded.toNumber();
  if (!Number.isSafeInteger(result)) throw new RangeError(`${amount} ${currency} is too large to hold exactly.`);
  return result;
}

/** Integer minor units to a decimal number in major units: 1999 TRY -> 19.99. */
export function fromMinorUnits(minor: number, currency: string): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units.`);
  // One IEEE division of two exact values (10^e is exact up to e = 22) is correctly rounded: the
  // nearest double to the decimal, the same as Number() of its exact string, without building one.
  return minor / 10 ** currencyExponent(currency) + 0;
}

/** Formats minor units as a fixed decimal string for display or CSV: 1999 TRY -> "19.99". */
export function formatMinorUnits(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (Number.isSafeInteger(minor)) return shiftedPoint(minor, exponent);
  return new Big(minor).div(new Big(10).pow(exponent)).toFixed(exponent);
}

/** Adds decimal amounts exactly (0.1 + 0.2 = 0.3), rounding the sum to the currency's decimals. */
export function addDecimalAmounts(currency: string, ...amounts: readonly (number | string)[]): number {
  const sum = amounts.reduce<Big>((total, a) => total.plus(a), new Big(0));
  return sum.round(currencyExponent(currency), Big.roundHalfUp).toNumber();
}
