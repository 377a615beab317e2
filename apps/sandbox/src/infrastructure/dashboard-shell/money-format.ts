import { currencyExponent, fromMinorUnits } from "@payspec/client-core";

/** Minor units as people read them on a page or in a PDF: 2500000000 TRY -> "25,000,000.00 TRY". */
export function money(minor: number, currency: string): string {
  const major = fromMinorUnits(minor, currency);
  const digits = currencyExponent(currency);
  return `${major.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}
