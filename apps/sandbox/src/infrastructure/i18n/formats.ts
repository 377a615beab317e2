import { currencyExponent, fromMinorUnits } from "@payspec/client-core";
import { istanbulDateTime } from "../time/istanbul-time.js";
import { activeLocale } from "./locale.js";

const INTL = { tr: "tr-TR", en: "en-US" } as const;

const formats = new Map<string, Intl.NumberFormat>();

/**
 * The language's number format with this many decimals (any, when undefined), made once: a
 * `toLocaleString` with options builds a new one on each call, and a page of 25 payments and their
 * accounts spent about a fifth of its time doing that.
 */
function numberFormat(decimals?: number): Intl.NumberFormat {
  const locale = INTL[activeLocale()];
  const key = `${locale} ${decimals ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    );
    formats.set(key, format);
  }
  return format;
}

/** A whole number grouped as the active language writes it: 12,500 or 12.500. */
export function count(n: number): string {
  return numberFormat().format(n);
}

/**
 * Minor units as people read them: "25,000,000.00 TRY" in English, "25.000.000,00 ₺" in Turkish
 * (the lira sign after the amount, as Turkish banks print it; other currencies by their code).
 */
export function money(minor: number, currency: string): string {
  const amount = numberFormat(currencyExponent(currency)).format(fromMinorUnits(minor, currency));
  return `${amount} ${activeLocale() === "tr" && currency === "TRY" ? "₺" : currency}`;
}

/**
 * A decimal as typed (`1.500`, up to three decimals) in the currency, as `money` writes amounts, keeping a
 * third decimal the currency cannot hold: what an ambiguous amount's readings are shown as.
 */
export function moneyOfDecimal(decimal: string, currency: string): string {
  const exponent = currencyExponent(currency);
  const decimals = Math.max(exponent, decimal.split(".")[1]?.replace(/0+$/, "").length ?? 0);
  const amount = numberFormat(decimals).format(Number(decimal));
  return `${amount} ${activeLocale() === "tr" && currency === "TRY" ? "₺" : currency}`;
}

/**
 * "1 payment", "2 payments"; Turkish keeps the noun singular after a number ("2 ödeme"), so it takes
 * one word.
 */
export function plural(n: number, en: readonly [one: string, many: string] | string, tr: string): string {
  if (activeLocale() === "tr") return `${count(n)} ${tr}`;
  const [one, many] = typeof en === "string" ? [en, `${en}s`] : en;
  return `${count(n)} ${n === 1 ? one : many}`;
}

/**
 * A moment in Istanbul time as the active language writes it: `2026-11-26 14:05:07` in English,
 * `26.11.2026 14:05:07` in Turkish.
 */
export function dateTime(ms: number): string {
  const [date = "", time = ""] = istanbulDateTime(ms).split(" ");
  return `${calendarDay(date)} ${time}`;
}

/** A calendar day (`2026-11-28`) as the active language writes it: as it is in English, `28.11.2026` in Turkish. */
export function calendarDay(isoDate: string): string {
  if (activeLocale() !== "tr") return isoDate;
  const [year, month, day] = isoDate.split("-");
  return `${day}.${month}.${year}`;
}

/**
 * A file's size with its unit, in the language's decimals: "1,6 MB", "42 KB", "812 bayt". A small
 * file is never "0,0 MB".
 */
export function fileSize(bytes: number): string {
  if (bytes < 1_000) return `${count(bytes)} ${activeLocale() === "tr" ? "bayt" : bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1_000_000) return `${numberFormat(0).format(Math.max(1, Math.round(bytes / 1e3)))} KB`;
  return `${numberFormat(1).format(bytes / 1e6)} MB`;
}

/** A duration in milliseconds with one decimal, as the language writes it: "0.9 ms", "0,9 ms". */
export function milliseconds(ms: number): string {
  return `${numberFormat(1).format(ms)} ms`;
}
