import { createHash, randomBytes } from "node:crypto";
import { containsCardNumber, isStorableText } from "@payspec/server-kit";
import { t } from "../infrastructure/i18n/locale.js";
import { endOfIstanbulDate } from "../infrastructure/time/istanbul-time.js";
import type { Statement, StatementLine } from "./reconciliation-store.js";
import { bankCsvMapping, type CsvMapping, readBankCsv, TURKISH_BANK_MAPPINGS } from "./statement-formats/bank-csv.js";
import { isCamt053, readCamt053 } from "./statement-formats/camt053.js";
import { csvRecords } from "./statement-formats/csv-records.js";
import { everyLine, statementLine, statementProblem } from "./statement-formats/entry-fields.js";
import { isMt940, mt940BalanceWarnings, readMt940 } from "./statement-formats/mt940.js";
import { statementText } from "./statement-formats/statement-text.js";

/** The statement's header, exactly: the columns a bank export is mapped to before import. */
export const STATEMENT_COLUMNS = ["reference", "amount_minor", "currency", "value_date"] as const;
/** Larger statements are split by the bank's own date ranges; these bounds keep one import one transaction. */
export const STATEMENT_MAX_BYTES = 10 * 1024 * 1024;
export const STATEMENT_MAX_LINES = 100_000;
/** The reference's own bound in the payments spec. */
const MAX_REFERENCE_LENGTH = 140;
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** A cell by its header and its column, as a spreadsheet shows it (amount_minor is column 2). */
function cellName(line: number, column: string): string {
  const n = STATEMENT_COLUMNS.indexOf(column as (typeof STATEMENT_COLUMNS)[number]) + 1;
  return t(`Line ${line} (${column}, column ${n})`, `${line}. satır (${column}, ${n}. sütun)`);
}

/** What no cell may hold: a negative amount, NUL or a broken character. */
function checkCells(cells: readonly string[], line: number): void {
  for (const [i, cell] of cells.entries()) {
    const column = STATEMENT_COLUMNS[i] as string;
    if (column === "amount_minor" && /^-\d/.test(cell))
      throw statementProblem(
        t(
          `${cellName(line, column)}: a negative amount; amounts are paid-in money, 0 or more.`,
          `${cellName(line, column)}: eksi bir tutar; tutarlar ödenen paradır, 0 ya da daha fazla.`,
        ),
      );
    if (!isStorableText(cell))
      throw statementProblem(
        t(
          `${cellName(line, column)}: holds NUL or a broken character; fix the file's text.`,
          `${cellName(line, column)}: NUL ya da bozuk bir karakter içeriyor; dosyanın metnini düzeltin.`,
        ),
      );
  }
}

function readLine(cells: string[], line: number): StatementLine {
  const at = (column: string) => cellName(line, column);
  if (cells.length !== STATEMENT_COLUMNS.length) {
    throw statementProblem(
      t(
        `Line ${line} has ${cells.length} cells; every line needs ${STATEMENT_COLUMNS.join(", ")}.`,
        `${line}. satırda ${cells.length} hücre var; her satırda ${STATEMENT_COLUMNS.join(", ")} olmalı.`,
      ),
    );
  }
  const [reference, amount, currency, valueDate] = cells as [string, string, string, string];
  checkCells(cells, line);
  if (reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) {
    throw statementProblem(
      t(
        `${at("reference")}: must be 1 to ${MAX_REFERENCE_LENGTH} characters, as a payment's reference is.`,
        `${at("reference")}: bir ödemenin referansı gibi 1 ile ${MAX_REFERENCE_LENGTH} karakter arasında olmalı.`,
      ),
    );
  }
  if (containsCardNumber(reference))
    throw statementProblem(
      t(
        `${at("reference")}: looks like it holds a card number; remove it.`,
        `${at("reference")}: bir kart numarası içeriyor gibi görünüyor; silin.`,
      ),
    );
  if (!/^\d+$/.test(amount) || !Number.isSafeInteger(Number(amount))) {
    throw statementProblem(
      t(
        `${at("amount_minor")}: must be a whole number of minor units (kuruş, cents), digits only, at most 2^53 − 1.`,
        `${at("amount_minor")}: en küçük birim (kuruş, sent) cinsinden, yalnızca rakamlardan oluşan, en çok 2^53 − 1 olan bir tam sayı olmalı.`,
      ),
    );
  }
  if (!/^[A-Z]{3}$/.test(currency) || !ISO_CURRENCIES.has(currency)) {
    throw statementProblem(
      t(
        `${at("currency")}: not an ISO 4217 currency code; use three capital letters such as TRY, USD or EUR.`,
        `${at("currency")}: bir ISO 4217 para birimi kodu değil; TRY, USD ya da EUR gibi üç büyük harf kullanın.`,
      ),
    );
  }
  if (endOfIstanbulDate(valueDate) === undefined)
    throw statementProblem(
      t(
        `${at("value_date")}: not a calendar date; use yyyy-MM-dd.`,
        `${at("value_date")}: takvimde olan bir tarih değil; YYYY-AA-GG kullanın.`,
      ),
    );
  // A reference is whatever the payment was given (`-INV-77` included): the report escapes what a
  // spreadsheet would run, so nothing is refused for how it starts.
  return { line, reference: reference.trim(), amountMinor: Number(amount), currency, valueDate, direction: "debit" };
}

/** Our own CSV (STATEMENT_COLUMNS): its lines, named by their line in the file. */
function readOurCsv(text: string): StatementLine[] {
  const [, ...rows] = csvRecords(text);
  return everyLine(rows, ({ record, info }) => readLine(record, info.lines));
}

/**
 * A bank statement file, its format recognised from the file itself: ISO 20022 camt.053 (XML),
 * SWIFT MT940, a Turkish bank's CSV export (see TURKISH_BANK_MAPPINGS), or our own CSV (a header of
 * STATEMENT_COLUMNS); UTF-8, Windows-1254, ISO-8859-9 or UTF-16 (see statementText). Its lines, or a
 * 400 that names every bad line (or entry) and field, never quoting the file. A statement with no
 * entries is a statement (a day with no movement). Nothing is changed by a file that fails.
 */
export function readStatement(bytes: Buffer, ownMappings: readonly CsvMapping[] = []): Statement {
  if (bytes.length > STATEMENT_MAX_BYTES) {
    throw statementProblem(
      t(
        `The statement is larger than ${STATEMENT_MAX_BYTES} bytes; split it by value date.`,
        `Ekstre ${STATEMENT_MAX_BYTES} bayttan büyük; valör tarihine göre bölün.`,
      ),
    );
  }
  const { text } = statementText(bytes);
  const head = text.slice(0, 2_000).replace(/^\uFEFF/, "");
  const firstLine = head.split(/\r?\n/, 1)[0]?.trim() ?? "";
  let lines: StatementLine[];
  let warnings: string[] = [];
  if (head.trimStart().startsWith("<")) {
    if (!isCamt053(head))
      throw statementProblem(
        t(
          "The XML file is not a camt.053 statement (BkToCstmrStmt, ISO 20022).",
          "XML dosyası bir camt.053 ekstresi değil (BkToCstmrStmt, ISO 20022).",
        ),
      );
    lines = everyLine(readCamt053(text), statementLine);
  } else if (isMt940(text)) {
    lines = everyLine(readMt940(text), statementLine);
    warnings = mt940BalanceWarnings(text);
  } else if (firstLine === STATEMENT_COLUMNS.join(",")) {
    lines = readOurCsv(text);
  } else {
    // The workspace's own layouts first: a bank it named knows better than a guess.
    const mapping = bankCsvMapping(head.replace(/^\uFEFF/, ""), [...ownMappings, ...TURKISH_BANK_MAPPINGS]);
    if (!mapping) {
      throw statementProblem(
        t(
          `Not a statement format this sandbox reads. Send camt.053 (XML), MT940, a bank's CSV export with the columns Tarih, Açıklama and Tutar (or İşlem Tarihi, Açıklama, Borç and Alacak), or Line 1 must be the header ${STATEMENT_COLUMNS.join(",")} (see the sample statement). Another bank's CSV: add its layout under Reconciliation (PUT /_sandbox/settings/statement-mappings).`,
          `Bu sandbox'ın okuduğu bir ekstre biçimi değil. camt.053 (XML), MT940, Tarih, Açıklama ve Tutar (ya da İşlem Tarihi, Açıklama, Borç ve Alacak) sütunlu bir banka CSV dışa aktarımı gönderin ya da 1. satır ${STATEMENT_COLUMNS.join(",")} başlığı olmalı (örnek ekstreye bakın). Başka bir bankanın CSV'si için düzenini Mutabakat sayfasında ekleyin (PUT /_sandbox/settings/statement-mappings).`,
        ),
      );
    }
    lines = everyLine(readBankCsv(text, mapping), statementLine);
  }
  if (lines.length > STATEMENT_MAX_LINES) {
    throw statementProblem(
      t(
        `The statement has more than ${STATEMENT_MAX_LINES} lines; split it by value date.`,
        `Ekstrede ${STATEMENT_MAX_LINES} satırdan fazlası var; valör tarihine göre bölün.`,
      ),
    );
  }
  return {
    id: `rec_${randomBytes(8).toString("hex")}`,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    lines,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
