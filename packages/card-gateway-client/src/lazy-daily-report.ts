import type { DailyTransactionsReportRow } from "./types.js";

/**
 * Reads the daily transactions .xlsx into typed rows (see `daily-report.ts`). The parser and exceljs,
 * its .xlsx reader (a large package), load on the first report read, not when the client is imported:
 * most programs that charge cards never read a report.
 */
export async function parseDailyReport(file: Uint8Array | ArrayBuffer): Promise<DailyTransactionsReportRow[]> {
  const { parseDailyReport: parse } = await import("./daily-report.js");
  return parse(file);
}
