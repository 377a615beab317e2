import { t } from "../../infrastructure/i18n/locale.js";
import { foldForSearch } from "../../infrastructure/text/search-fold.js";
import { csvRecords } from "./csv-records.js";
import type { RawEntry } from "./entry-fields.js";

/**
 * How a bank's CSV export is read: which columns hold the date, the narrative and the money, and how
 * numbers and dates are written. Column names are compared folded (case, İ/ı), as people type them.
 */
export interface CsvMapping {
  readonly name: string;
  readonly date: string;
  readonly dateFormat: "dd.MM.yyyy" | "dd/MM/yyyy" | "yyyy-MM-dd";
  /** Columns joined into the narrative, in order. */
  readonly narrative: readonly string[];
  /** One signed amount column (`-` for debits)… */
  readonly amount?: string;
  /** …or a debit and a credit column. */
  readonly debit?: string;
  readonly credit?: string;
  /** The currency's column, or the one currency of the whole file. */
  readonly currencyColumn?: string;
  readonly currency?: string;
  readonly decimal: "," | ".";
  readonly thousands: "." | "," | "" | " ";
}

/** The layouts Turkish internet-banking exports use (CSV or Excel saved as CSV). */
export const TURKISH_BANK_MAPPINGS: readonly CsvMapping[] = [
  {
    name: "Tarih, Açıklama, Tutar, Bakiye (signed amount)",
    date: "Tarih",
    dateFormat: "dd.MM.yyyy",
    narrative: ["Açıklama"],
    amount: "Tutar",
    currencyColumn: "Para Birimi",
    currency: "TRY",
    decimal: ",",
    thousands: ".",
  },
  {
    name: "İşlem Tarihi, Açıklama, Borç, Alacak, Bakiye (debit and credit columns)",
    date: "İşlem Tarihi",
    dateFormat: "dd.MM.yyyy",
    narrative: ["Açıklama", "Karşı Taraf"],
    debit: "Borç",
    credit: "Alacak",
    currencyColumn: "Döviz",
    currency: "TRY",
    decimal: ",",
    thousands: ".",
  },
];

const fold = (name: string) => foldForSearch(name.trim()).replace(/\s+/g, " ");

/** The mapping whose required columns the header holds, or undefined. */
export function mappingFor(header: readonly string[], mappings: readonly CsvMapping[]): CsvMapping | undefined {
  const names = new Set(header.map(fold));
  return mappings.find((m) =>
    [m.date, ...(m.amount ? [m.amount] : [m.debit ?? "", m.credit ?? ""])].every((column) => names.has(fold(column))),
  );
}

/** The delimiter a header line uses: banks in Türkiye mostly write `;` (a comma is the decimal mark). */
function delimiterOf(firstLine: string): string {
  const counts = [";", "\t", ","].map((d) => [d, firstLine.split(d).length - 1] as const);
  return counts.sort((a, b) => b[1] - a[1])[0]?.[0] ?? ";";
}

function isoDate(value: string, format: CsvMapping["dateFormat"]): string {
  const v = value.trim();
  const m = format === "yyyy-MM-dd" ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : /^(\d{1,2})[./](\d{1,2})[./](\d{4})/.exec(v);
  if (!m) return v;
  if (format === "yyyy-MM-dd") return `${m[1]}-${m[2]}-${m[3]}`;
  return `${m[3]}-${(m[2] as string).padStart(2, "0")}-${(m[1] as string).padStart(2, "0")}`;
}

/** "1.500,75" or "-1.500,75 TL" as "-1500.75". */
function plainNumber(value: string, mapping: CsvMapping): string {
  let v = value.replace(/\s*(TL|TRY|₺)$/i, "").trim();
  if (mapping.thousands) v = v.split(mapping.thousands).join("");
  if (mapping.decimal === ",") v = v.replace(",", ".");
  return v;
}

/** Whether the first line is a header one of the mappings reads. */
export function bankCsvMapping(text: string, mappings: readonly CsvMapping[]): CsvMapping | undefined {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  return mappingFor(firstLine.split(delimiterOf(firstLine)), mappings);
}

/**
 * The entries of a bank's CSV export read through `mapping`: a signed amount (or debit and credit
 * columns), the date, the narrative. A row without money (a balance line, a blank) is left out.
 */
export function readBankCsv(text: string, mapping: CsvMapping): RawEntry[] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const [header, ...rows] = csvRecords(text, delimiterOf(firstLine));
  const columns = new Map((header?.record ?? []).map((name, i) => [fold(name), i]));
  const cell = (record: string[], name: string | undefined) =>
    name === undefined ? "" : (record[columns.get(fold(name)) ?? -1] ?? "").trim();
  const entries: RawEntry[] = [];
  for (const { record, info } of rows) {
    let signed: string;
    if (mapping.amount) signed = plainNumber(cell(record, mapping.amount), mapping);
    else {
      const debit = plainNumber(cell(record, mapping.debit), mapping).replace(/^-/, "");
      const credit = plainNumber(cell(record, mapping.credit), mapping);
      signed = debit && Number(debit) !== 0 ? `-${debit}` : credit;
    }
    if (!signed) continue;
    const where = t(`Line ${info.lines}`, `${info.lines}. satır`);
    const columnOf = (name: string | undefined) => {
      const index = name === undefined ? undefined : columns.get(fold(name));
      return index === undefined ? undefined : t(`column ${index + 1}`, `${index + 1}. sütun`);
    };
    entries.push({
      where,
      at: (field) =>
        columnOf(
          field === "amount"
            ? (mapping.amount ?? (signed.startsWith("-") ? mapping.debit : mapping.credit))
            : field === "currency"
              ? mapping.currencyColumn
              : mapping.date,
        ),
      line: info.lines,
      amount: signed.replace(/^-/, ""),
      currency: cell(record, mapping.currencyColumn) || mapping.currency || "",
      direction: signed.startsWith("-") ? "debit" : "credit",
      valueDate: isoDate(cell(record, mapping.date), mapping.dateFormat),
      references: [],
      narrative: mapping.narrative
        .map((name) => cell(record, name))
        .filter(Boolean)
        .join(" "),
    });
  }
  return entries;
}
