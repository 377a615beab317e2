import { t } from "./locale.js";

/**
 * Payment methods in words of the active language, as Turkish banks' customers know them. The API's
 * value stays where programs read it (filters in the address, the CSV, file names).
 */
const WORDS: Readonly<Record<string, readonly [en: string, tr: string]>> = {
  card: ["card", "kart"],
  bank_transfer: ["bank transfer", "havale"],
  eft: ["EFT", "EFT"],
  virtual_account: ["virtual account", "sanal hesap"],
  direct_debit: ["direct debit", "otomatik ödeme talimatı"],
};

/** A method in words ("bank_transfer" → "havale"); one this table does not know, with spaces for underscores. */
export function methodWord(method: string): string {
  const words = WORDS[method];
  return words ? t(words[0], words[1]) : method.replaceAll("_", " ");
}
