import { toMinorUnits } from "@payspec/client-core";
import { ApiFailure, maskCardNumbers } from "@payspec/server-kit";
import { t } from "../../infrastructure/i18n/locale.js";
import { endOfIstanbulDate } from "../../infrastructure/time/istanbul-time.js";
import type { StatementLine } from "../reconciliation-store.js";

/** Statements in any format become these; the reader of each format names where a bad field is. */
export interface RawEntry {
  /** How an error names the entry: "Line 4", "Entry 2". */
  readonly where: string;
  readonly line: number;
  readonly amount: string;
  readonly currency: string;
  readonly direction: "debit" | "credit";
  readonly valueDate: string;
  readonly references: readonly string[];
  readonly narrative: string;
  /** The bank's status of an entry it has not booked (camt.053 `PDNG`, `INFO`); absent when booked. */
  readonly bankStatus?: string;
  /**
   * Where a field is in the file, for an error about it (`Stmt/Ntry[2]/Amt, line 110, column 11`;
   * `line 7, column 12`): worked out only when an error asks.
   */
  readonly at?: (field: "amount" | "currency" | "valueDate") => string | undefined;
}

/** ", <where the field is>" for an error's parenthesis, or nothing when the reader cannot say. */
const placed = (entry: RawEntry, field: "amount" | "currency" | "valueDate") => {
  const at = entry.at?.(field);
  return at ? `, ${at}` : "";
};

/** A reference's own bound in the payments spec; a longer one in a bank file is narrative. */
const MAX_REFERENCE_LENGTH = 140;
/** What banks write for "no reference". */
const NO_REFERENCE = new Set(["NOTPROVIDED", "NONREF", "NONE", ""]);

/** A statement refused: 400 in the payments API's shape, naming the statement (never quoting it). */
export const statementProblem = (message: string) => new ApiFailure("invalid_request", message, { param: "statement" });

/** A file with this many bad lines is named by its first ones: enough to see the pattern. */
export const MAX_LINE_PROBLEMS = 20;

/**
 * Reads every line (or entry) of a statement, and when some are bad, refuses the file once naming
 * each of them (the first MAX_LINE_PROBLEMS), so a person fixes the file in one go instead of
 * uploading it again per line. A problem that is not a line's (a bug) is thrown as it is.
 */
export function everyLine<T, R>(items: readonly T[], read: (item: T) => R): R[] {
  const lines: R[] = [];
  const problems: string[] = [];
  for (const item of items) {
    try {
      lines.push(read(item));
    } catch (error) {
      if (!(error instanceof ApiFailure) || error.options.param !== "statement") throw error;
      problems.push(error.message);
      if (problems.length === MAX_LINE_PROBLEMS) break;
    }
  }
  if (problems.length === 1) throw statementProblem(problems[0] ?? "");
  if (problems.length > 1) {
    const more =
      problems.length === MAX_LINE_PROBLEMS
        ? ` ${t(`(The first ${MAX_LINE_PROBLEMS} problems; the file may hold more.)`, `(İlk ${MAX_LINE_PROBLEMS} sorun; dosyada daha fazlası olabilir.)`)}`
        : "";
    throw new ApiFailure("invalid_request", `${problems.join(" ")}${more}`, {
      param: "statement",
      errors: problems.map((message) => ({ field: "statement", message })),
    });
  }
  return lines;
}

/**
 * One entry as the matcher reads it: an exact amount in the currency's minor units, an ISO currency,
 * a calendar date, the first real reference, and the narrative with card numbers masked (a statement
 * is kept with its run, and a full card number is never kept anywhere).
 */
export function statementLine(entry: RawEntry): StatementLine {
  const currency = entry.currency.trim().toUpperCase();
  // Any three-letter code: banks' files still carry codes ISO 4217 has withdrawn (DEM), which no
  // payment here uses, so such an entry simply matches nothing.
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw statementProblem(
      t(
        `${entry.where} (currency${placed(entry, "currency")}): not a currency code such as TRY, USD or EUR.`,
        `${entry.where} (para birimi${placed(entry, "currency")}): TRY, USD ya da EUR gibi bir para birimi kodu değil.`,
      ),
    );
  }
  let amountMinor: number;
  try {
    amountMinor = toMinorUnits(entry.amount.trim(), currency, { exact: true });
  } catch {
    throw statementProblem(
      t(
        `${entry.where} (amount${placed(entry, "amount")}): not an amount in ${currency} with at most its currency's decimals, such as 1500.75.`,
        `${entry.where} (tutar${placed(entry, "amount")}): 1500.75 gibi, en çok para biriminin ondalık basamağı kadar ondalıklı bir ${currency} tutarı değil.`,
      ),
    );
  }
  if (amountMinor < 0)
    throw statementProblem(
      t(
        `${entry.where} (amount${placed(entry, "amount")}): negative; the debit or credit mark says which way money moved.`,
        `${entry.where} (tutar${placed(entry, "amount")}): eksi; paranın yönünü borç ya da alacak işareti söyler.`,
      ),
    );
  if (endOfIstanbulDate(entry.valueDate) === undefined) {
    throw statementProblem(
      t(
        `${entry.where} (value date${placed(entry, "valueDate")}): not a calendar date.`,
        `${entry.where} (valör${placed(entry, "valueDate")}): takvimde olan bir tarih değil.`,
      ),
    );
  }
  const reference =
    entry.references
      .map((r) => r.trim())
      .find((r) => !NO_REFERENCE.has(r.toUpperCase()) && r.length <= MAX_REFERENCE_LENGTH) ?? "";
  return {
    line: entry.line,
    reference: maskCardNumbers(reference),
    amountMinor,
    currency,
    valueDate: entry.valueDate,
    direction: entry.direction,
    ...(entry.bankStatus ? { bankStatus: entry.bankStatus } : {}),
    ...(entry.narrative.trim()
      ? { narrative: maskCardNumbers(entry.narrative.replace(/\s+/g, " ").trim()).slice(0, 500) }
      : {}),
  };
}
