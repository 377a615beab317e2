import { t } from "./locale.js";

/** Values a program reads (`bank_transfer`, `processing`) and the words people read for each, English and Turkish. */
export type WordTable = Readonly<Record<string, readonly [en: string, tr: string]>>;

/**
 * A value in words of the active language; one the table does not know, with spaces for underscores.
 * The value itself stays where programs read it (markup classes, filters, files).
 */
export function wordsFrom(table: WordTable): (value: string) => string {
  return (value) => {
    const words = table[value];
    return words ? t(words[0], words[1]) : value.replaceAll("_", " ");
  };
}
