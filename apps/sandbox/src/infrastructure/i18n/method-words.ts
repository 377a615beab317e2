import { type WordTable, wordsFrom } from "./word-table.js";

/**
 * Payment methods in words of the active language, as Turkish banks' customers know them. The API's
 * value stays where programs read it (filters in the address, the CSV, file names).
 */
const WORDS: WordTable = {
  card: ["card", "kart"],
  bank_transfer: ["bank transfer", "havale"],
  eft: ["EFT", "EFT"],
  virtual_account: ["virtual account", "sanal hesap"],
  direct_debit: ["direct debit", "otomatik ödeme talimatı"],
};

/** A method in words ("bank_transfer" → "havale"). */
export const methodWord = wordsFrom(WORDS);
