import { toMinorUnits } from "@payspec/client-core";
import { money } from "../../infrastructure/i18n/formats.js";
import { t } from "../../infrastructure/i18n/locale.js";
import type { RawEntry } from "./entry-fields.js";
import { statementProblem } from "./entry-fields.js";

/**
 * Whether the text is a SWIFT MT940 statement: a `:20:` reference, and statement lines (`:61:`) or an
 * opening balance (`:60F:`/`:60M:`): a day with no movement is a statement with no lines.
 */
export function isMt940(text: string): boolean {
  return /(^|\n):20:/.test(text) && /(^|\n):(61|60F|60M):/.test(text);
}

/**
 * `:61:` — value date YYMMDD, an optional entry date MMDD (four spaces at banks that leave it out:
 * Citi's, ASN Bank's), the mark (C, D, RC, RD), an optional funds code, the amount with a decimal
 * comma, the transaction type (N, F or S and three characters), then the customer's reference up to
 * `//` and the bank's after it.
 */
const STATEMENT_LINE = /^(\d{6})(\d{4}| {4})?(RC|RD|C|D)([A-Z])?(\d[\d,]*)([NFS][A-Z0-9 ]{3})([^\n]*)/;

/**
 * Where a `:61:` value stops being a statement line, as a column of its line (the value starts at 5,
 * after `:61:`), and what should have been there, in English and Turkish.
 */
function firstFault(value: string): [number, string, string] {
  const steps: [RegExp, string, string][] = [
    [/^\d{6}/, "a value date (YYMMDD)", "bir valör (YYAAGG)"],
    [/^(\d{4}| {4})?/, "", ""],
    [/^(RC|RD|C|D)/, "the debit or credit mark (C, D, RC or RD)", "borç ya da alacak işareti (C, D, RC ya da RD)"],
    [/^[A-Z]?/, "", ""],
    [/^\d[\d,]*/, "an amount with a decimal comma", "ondalık virgüllü bir tutar"],
    [
      /^[NFS][A-Z0-9 ]{3}/,
      "a transaction type (N, F or S and three characters)",
      "bir işlem türü (N, F ya da S ve üç karakter)",
    ],
  ];
  let at = 0;
  for (const [step, en, tr] of steps) {
    const matched = step.exec(value.slice(at));
    if (!matched) return [5 + at, en, tr];
    at += matched[0].length;
  }
  return [5 + at, "the customer reference", "müşteri referansı"];
}

/**
 * YYMMDD as yyyy-MM-dd: SWIFT's years 00–79 are this century, 80–99 the last. German banks date
 * interest and fee settlements by the 30/360 day count, so a value date can be 29 or 30 February in a
 * year whose February is shorter (a Sparkasse's 160230): that is February's last day, as the bank
 * means it and as wolph/mt940 reads it. Any other day a month lacks stays refused.
 */
function date(yymmdd: string): string {
  const yy = Number(yymmdd.slice(0, 2));
  const year = yy < 80 ? 2000 + yy : 1900 + yy;
  const month = yymmdd.slice(2, 4);
  let day = yymmdd.slice(4, 6);
  if (month === "02" && (day === "29" || day === "30")) {
    const lastOfFebruary = new Date(Date.UTC(year, 2, 0)).getUTCDate();
    day = String(Math.min(Number(day), lastOfFebruary));
  }
  return `${year}-${month}-${day}`;
}

/** The width of an `:86:` line (SWIFT's 6*65x): a bank wraps there, in the middle of a word if need be. */
const NARRATIVE_WIDTH = 65;

/**
 * An `:86:` narrative's lines as one text: a line the bank filled to the width was wrapped there, and
 * goes on in the next without a space (ASN Bank's `…Betaling aan I` + `CS 99999…` is `ICS`); a
 * shorter line ended where the writer ended it, so a space follows (ING's `ROSMALEN` + `Betaling`).
 */
function joinedNarrative(lines: readonly string[]): string {
  return lines.reduce(
    (text, line, i) => (i === 0 ? line : `${text}${(lines[i - 1] ?? "").length >= NARRATIVE_WIDTH ? "" : " "}${line}`),
    "",
  );
}

/** A `:61:` line being read: its line number, its fields and its narrative so far. */
interface OpenLine {
  readonly line: number;
  readonly fields: string[];
  readonly narrative: string[];
}

/** The entry of a `:61:` line, once its `:86:` narrative is whole. */
function statementLineEntry(current: OpenLine, currency: string, currencyAt: string, n: number): RawEntry {
  const [valueDate, , mark, , amount, , rest] = current.fields as string[];
  const [customer = "", bank = ""] = (rest ?? "").split("//");
  const [, entryDate = "", , funds = ""] = current.fields as string[];
  // Columns of the :61: line: the value date right after the tag, the amount after the mark.
  const amountColumn = 5 + 6 + entryDate.length + (mark ?? "").length + funds.length;
  return {
    where: t(`Line ${current.line}`, `${current.line}. satır`),
    at: (field) =>
      field === "currency"
        ? currencyAt || undefined
        : field === "amount"
          ? t(`column ${amountColumn}`, `${amountColumn}. sütun`)
          : t("column 5", "5. sütun"),
    line: n,
    amount: (amount ?? "").replace(",", ".").replace(/\.$/, ""),
    currency,
    direction: mark === "D" || mark === "RC" ? "debit" : "credit",
    valueDate: date(valueDate ?? ""),
    references: [customer.trim(), bank.trim()],
    narrative: joinedNarrative(current.narrative)
      .replace(/\?\d\d/g, " ")
      .trim(),
  };
}

/**
 * The entries of a SWIFT MT940 statement (one or more messages; an MT942 interim report reads the
 * same way): each `:61:` line with the currency of its message's opening balance (`:60F:`/`:60M:`,
 * or an MT942's floor limit `:34F:`), its `:86:` narrative (continuation lines
 * joined; `?20`–`?29` subfields of German banks read as text), and its customer reference.
 */
export function readMt940(text: string): RawEntry[] {
  const entries: RawEntry[] = [];
  let currency = "";
  /** Where the message's currency was written: the line and column of its `:60F:` or `:34F:`. */
  let currencyAt = "";
  let current: OpenLine | undefined;
  let tag = "";
  const finish = () => {
    if (!current) return;
    entries.push(statementLineEntry(current, currency, currencyAt, entries.length + 1));
    current = undefined;
  };
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const tagged = /^:(\d\d[A-Z]?):(.*)$/.exec(raw);
    if (!tagged) {
      // A continuation of the field above (narrative, or the rest of a :61:'s details).
      if (tag === "86" && current) current.narrative.push(raw);
      continue;
    }
    tag = tagged[1] as string;
    const value = tagged[2] as string;
    if (tag === "20") {
      // A new message: its lines take its own currency, not the last message's.
      finish();
      currency = "";
      currencyAt = "";
    } else if (tag === "60F" || tag === "60M") {
      currency = /^[CD]\d{6}([A-Z]{3})/.exec(value)?.[1] ?? "";
      currencyAt = t(`line ${i + 1}, column 13`, `${i + 1}. satır, 13. sütun`);
    } else if (tag === "34F" && currency === "") {
      // An interim report (MT942) has no opening balance: its floor limit names the currency.
      currency = /^([A-Z]{3})/.exec(value)?.[1] ?? "";
      currencyAt = t(`line ${i + 1}, column 6`, `${i + 1}. satır, 6. sütun`);
    } else if (tag === "61") {
      finish();
      const fields = STATEMENT_LINE.exec(value);
      if (!fields) {
        const [column, en, tr] = firstFault(value);
        throw statementProblem(
          t(
            `Line ${i + 1}, column ${column} (:61:): not an MT940 statement line: ${en} expected there (value date YYMMDD, an optional entry date, C or D, the amount, the transaction type).`,
            `${i + 1}. satır, ${column}. sütun (:61:): bir MT940 hesap hareketi satırı değil: orada ${tr} bekleniyor (YYAAGG valör, isteğe bağlı kayıt tarihi, C ya da D, tutar, işlem türü).`,
          ),
        );
      }
      current = { line: i + 1, fields: fields.slice(1), narrative: [] };
    } else if (tag === "86") {
      if (current) current.narrative.push(value);
    } else {
      finish();
    }
  }
  finish();
  if (entries.some((entry) => entry.currency === "")) {
    throw statementProblem(
      t(
        "The MT940 file has statement lines (:61:) without an opening balance (:60F:) or, in an MT942, a floor limit (:34F:) naming the currency.",
        "MT940 dosyasında para birimini söyleyen açılış bakiyesi (:60F:) ya da MT942'de alt sınır (:34F:) olmadan hareket satırları (:61:) var.",
      ),
    );
  }
  return entries;
}

const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d[\d,]*)/;

/** An MT940 amount (`1234,5`, `100,`) in the currency's minor units; undefined when it is not one. */
function minorUnits(amount: string, currency: string): number | undefined {
  try {
    return toMinorUnits(amount.replace(",", ".").replace(/\.$/, ""), currency, { exact: true });
  } catch {
    return undefined;
  }
}

/**
 * What does not add up in an MT940 file, message by message: the opening balance (`:60F:`/`:60M:`)
 * plus its movements (`:61:`, C and RD in, D and RC out) against the closing balance (`:62F:`/`:62M:`).
 * Banks' own files add up; anonymised and hand-edited ones often do not, so a difference is a warning
 * beside the run, never a refusal. An MT942 (no balances) says nothing.
 */
export function mt940BalanceWarnings(text: string): string[] {
  const warnings: string[] = [];
  let reference = "";
  let opening: { currency: string; minor: number } | undefined;
  let moved = 0;
  let readable = true;
  for (const raw of text.split(/\r?\n/)) {
    const tagged = /^:(\d\d[A-Z]?):(.*)$/.exec(raw);
    if (!tagged) continue;
    const [, tag, value = ""] = tagged;
    if (tag === "20") {
      reference = value.trim();
      opening = undefined;
      moved = 0;
      readable = true;
    } else if ((tag === "60F" || tag === "60M") && BALANCE.test(value)) {
      const [, mark, , currency = "", amount = ""] = BALANCE.exec(value) as RegExpExecArray;
      const minor = minorUnits(amount, currency);
      if (minor === undefined) readable = false;
      else opening = { currency, minor: mark === "D" ? -minor : minor };
    } else if (tag === "61" && opening) {
      const fields = STATEMENT_LINE.exec(value);
      const minor = fields ? minorUnits(fields[5] ?? "", opening.currency) : undefined;
      if (minor === undefined) readable = false;
      else moved += fields?.[3] === "C" || fields?.[3] === "RD" ? minor : -minor;
    } else if ((tag === "62F" || tag === "62M") && opening && readable && BALANCE.test(value)) {
      const [, mark, , currency = "", amount = ""] = BALANCE.exec(value) as RegExpExecArray;
      const minor = minorUnits(amount, currency);
      const closing = minor === undefined ? undefined : mark === "D" ? -minor : minor;
      if (closing !== undefined && currency === opening.currency && opening.minor + moved !== closing) {
        // In the reader's language: "1.234,50 ₺" on a Turkish page, "1,234.50 TRY" on an English one.
        const shown = (n: number) => money(n, currency);
        const difference = shown(closing - opening.minor - moved);
        warnings.push(
          t(
            `Message ${reference || "without :20:"}: the opening balance ${shown(opening.minor)} plus the movements ${shown(moved)} is ${shown(opening.minor + moved)}, not the closing balance ${shown(closing)} (a difference of ${difference}); its lines were reconciled as the bank wrote them.`,
            `${reference || ":20: olmayan"} mesajı: açılış bakiyesi ${shown(opening.minor)} ile hareketler ${shown(moved)} toplamı ${shown(opening.minor + moved)}, kapanış bakiyesi ${shown(closing)} değil (fark ${difference}); satırlar bankanın yazdığı gibi mutabakata alındı.`,
          ),
        );
      }
      opening = undefined;
    }
  }
  return warnings;
}
