import { createHash, randomBytes } from "node:crypto";
import { ApiFailure, containsCardNumber, isStorableText } from "@payspec/server-kit";
import { parse } from "csv-parse/sync";
import { endOfIstanbulDate } from "../infrastructure/clock/istanbul-time.js";
import { firstBadUtf8 } from "./first-bad-utf8.js";
import type { Statement, StatementLine } from "./reconciliation-store.js";

/** The statement's header, exactly: the columns a bank export is mapped to before import. */
export const STATEMENT_COLUMNS = ["reference", "amount_minor", "currency", "value_date"] as const;
/** Larger statements are split by the bank's own date ranges; these bounds keep one import one transaction. */
export const STATEMENT_MAX_BYTES = 10 * 1024 * 1024;
export const STATEMENT_MAX_LINES = 100_000;
/** The reference's own bound in the payments spec. */
const MAX_REFERENCE_LENGTH = 140;
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

const bad = (message: string) => new ApiFailure("invalid_request", message, { param: "statement" });

/** What a spreadsheet would run as a formula (OWASP): a statement holds plain values only. */
const looksLikeFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell);

function readLine(cells: string[], line: number): StatementLine {
  const at = (column: string) => `Line ${line} (${column})`;
  if (cells.length !== STATEMENT_COLUMNS.length) {
    throw bad(`Line ${line} has ${cells.length} cells; every line needs ${STATEMENT_COLUMNS.join(", ")}.`);
  }
  const [reference, amount, currency, valueDate] = cells as [string, string, string, string];
  for (const [i, cell] of cells.entries()) {
    const column = STATEMENT_COLUMNS[i] as string;
    if (column === "amount_minor" && /^-\d/.test(cell))
      throw bad(`${at(column)}: a negative amount; amounts are paid-in money, 0 or more.`);
    if (looksLikeFormula(cell)) {
      throw bad(
        `${at(column)}: starts like a spreadsheet formula (=, +, -, @, tab); a statement holds plain values only.`,
      );
    }
    if (!isStorableText(cell)) throw bad(`${at(column)}: holds NUL or a broken character; fix the file's text.`);
  }
  if (reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) {
    throw bad(`${at("reference")}: must be 1 to ${MAX_REFERENCE_LENGTH} characters, as a payment's reference is.`);
  }
  if (containsCardNumber(reference)) throw bad(`${at("reference")}: looks like it holds a card number; remove it.`);
  if (!/^\d+$/.test(amount) || !Number.isSafeInteger(Number(amount))) {
    throw bad(
      `${at("amount_minor")}: must be a whole number of minor units (kuruş, cents), digits only, at most 2^53 − 1.`,
    );
  }
  if (!/^[A-Z]{3}$/.test(currency) || !ISO_CURRENCIES.has(currency)) {
    throw bad(`${at("currency")}: not an ISO 4217 currency code; use three capital letters such as TRY, USD or EUR.`);
  }
  if (endOfIstanbulDate(valueDate) === undefined)
    throw bad(`${at("value_date")}: not a calendar date; use yyyy-MM-dd.`);
  return { line, reference, amountMinor: Number(amount), currency, valueDate };
}

/**
 * A bank statement file (CSV, UTF-8, a header of STATEMENT_COLUMNS): its lines, or a 400 that names
 * the first bad line and column, never quoting the file. Nothing is changed by a file that fails.
 */
export function readStatement(bytes: Buffer): Statement {
  if (bytes.length > STATEMENT_MAX_BYTES) {
    throw bad(`The statement is larger than ${STATEMENT_MAX_BYTES} bytes; split it by value date.`);
  }
  const undecodable = firstBadUtf8(bytes);
  if (undecodable) {
    throw bad(
      `Line ${undecodable.line}, column ${undecodable.column} (byte ${undecodable.byte}): not UTF-8 text; save the statement as UTF-8 (in Excel: CSV UTF-8).`,
    );
  }
  const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // `info` tells each record's line in the file (blank lines are skipped), so errors name the right one.
    records = parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw bad(`The statement is not valid CSV${line ? ` near line ${line}` : ""}: check its quotes.`);
  }
  const [header, ...rows] = records;
  if (!header || header.record.join(",") !== STATEMENT_COLUMNS.join(",")) {
    throw bad(`Line 1 must be the header ${STATEMENT_COLUMNS.join(",")}, exactly (see the sample statement).`);
  }
  if (rows.length === 0) throw bad("The statement has a header and no lines.");
  if (rows.length > STATEMENT_MAX_LINES) {
    throw bad(`The statement has more than ${STATEMENT_MAX_LINES} lines; split it by value date.`);
  }
  return {
    id: `rec_${randomBytes(8).toString("hex")}`,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    lines: rows.map(({ record, info }) => readLine(record, info.lines)),
  };
}
