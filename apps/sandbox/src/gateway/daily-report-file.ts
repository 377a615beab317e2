import { dailyTransactionsReportColumns } from "@payspec/card-gateway-zod";
import ExcelJS from "exceljs";
import type { StoredCardPayment } from "../store/index.js";

/** Builds the daily report: the spec's twelve Turkish headers in order, one row per transaction. */
export async function dailyReportFile(payments: readonly StoredCardPayment[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "payspec sandbox";
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
    sheet.addRow(dailyTransactionsReportColumns.map((c) => row[c.field]));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
