import { dailyTransactionsReportColumns, zDailyTransactionsReportRow } from "@payspec/card-gateway-zod";
import ExcelJS from "exceljs";
import { ReportFormatError } from "./report-format-error.js";
import type { DailyTransactionsReportRow } from "./types.js";

const NUMERIC_FIELDS = new Set(["amount", "commission", "installment"]);

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && "richText" in value) return value.richText.map((r) => r.text).join("");
  if (typeof value === "object" && "text" in value) return String(value.text);
  if (typeof value === "object" && "result" in value) return String(value.result ?? "");
  return String(value);
}

function cellValue(field: string, value: ExcelJS.CellValue): string | number {
  if (NUMERIC_FIELDS.has(field)) return typeof value === "number" ? value : Number(cellText(value));
  return cellText(value);
}

/**
 * Reads the daily transactions .xlsx into typed rows. The header row must be the spec's twelve
 * Turkish columns in order; every row must satisfy the spec's row schema. Masked card numbers stay
 * masked: the file never holds a full one.
 */
export async function parseDailyReport(file: Uint8Array | ArrayBuffer): Promise<DailyTransactionsReportRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file instanceof Uint8Array ? (Buffer.from(file) as never) : (file as never));
  } catch (error) {
    throw new ReportFormatError(`The report is not a readable .xlsx file: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ReportFormatError("The report has no worksheet.");
  const headerRow = sheet.getRow(1);
  dailyTransactionsReportColumns.forEach((column, i) => {
    const found = cellText(headerRow.getCell(i + 1).value).trim();
    if (found !== column.header) {
      throw new ReportFormatError(`Column ${i + 1} should be "${column.header}" but is "${found}".`);
    }
  });
  const rows: DailyTransactionsReportRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) continue;
    const record = Object.fromEntries(
      dailyTransactionsReportColumns.map((column, i) => [
        column.field,
        cellValue(column.field, row.getCell(i + 1).value),
      ]),
    );
    const parsed = zDailyTransactionsReportRow.safeParse(record);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      throw new ReportFormatError(`Row ${r} of the report breaks the spec: ${issues}`);
    }
    rows.push(parsed.data as DailyTransactionsReportRow);
  }
  return rows;
}
