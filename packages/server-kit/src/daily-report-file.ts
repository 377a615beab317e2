import { type CardPayment, dailyTransactionsReportColumns } from "@payspec/card-gateway-zod";
import ExcelJS from "exceljs";
import { xmlSafeText } from "./xml-safe-text.js";

/** A successful card payment and the commission charged on it: one row of the daily report. */
export interface ReportedPayment {
  readonly payment: CardPayment;
  /** Major units (the report's Komisyon). */
  readonly commission: number;
}

function cell(value: string | number): string | number {
  return typeof value === "string" ? xmlSafeText(value) : value;
}

/**
 * The daily transactions report as the gateway serves it: an .xlsx whose first row is the spec's
 * twelve Turkish headers in order, then one row per payment. Card numbers are already masked.
 */
export async function dailyReportFile(payments: readonly ReportedPayment[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "payspec";
  const sheet = workbook.addWorksheet("Günlük İşlemler");
  sheet.addRow(dailyTransactionsReportColumns.map((c) => c.header));
  sheet.getRow(1).font = { bold: true };
  for (const { payment, commission } of payments) {
    const row: Record<(typeof dailyTransactionsReportColumns)[number]["field"], string | number> = {
      createdDate: payment.createdDate,
      transactionId: payment.transactionId,
      orderId: payment.orderId,
      status: payment.paymentStatus,
      amount: payment.amount,
      currency: payment.currency,
      commission,
      cardNumber: payment.cardDetails.cardNumber,
      cardHolderName: payment.cardDetails.cardHolderName,
      installment: payment.installment,
      authCode: payment.authCode ?? "",
      referenceId: payment.referenceId,
    };
    // The gateway refuses text XML cannot hold; cleaning it here too means no input can ever corrupt a report.
    sheet.addRow(dailyTransactionsReportColumns.map((c) => cell(row[c.field])));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
