import { dailyTransactionsReportColumns } from "@payspec/card-gateway-zod";
import { cardGatewaySpec, specExamples } from "@payspec/specs";
import ExcelJS from "exceljs";

/**
 * Prism cannot serve a binary example, so the mock builds the daily report itself: the spec's twelve
 * Turkish headers, and one row taken from the spec's successful card payment example.
 */
export async function exampleDailyReport(): Promise<Buffer> {
  const example = specExamples(cardGatewaySpec).find(
    (e) => e.operationId === "createCardPayment" && e.part === "200" && e.name.includes('"success"'),
  );
  if (!example)
    throw new Error("The gateway spec lost its 'success' card payment example; the mock's report is built from it.");
  // biome-ignore lint/suspicious/noExplicitAny: the example is checked against the spec by the spec tests
  const payment = (example.value as { response: Record<string, any> }).response;
  const row: Record<string, unknown> = {
    createdDate: payment.createdDate,
    transactionId: payment.transactionId,
    orderId: payment.orderId,
    status: payment.paymentStatus,
    amount: payment.amount,
    currency: payment.currency,
    commission: Math.round(payment.amount * payment.products[0].commissionRate) / 100,
    cardNumber: payment.cardDetails.cardNumber,
    cardHolderName: payment.cardDetails.cardHolderName,
    installment: payment.installment,
    authCode: payment.authCode,
    referenceId: payment.referenceId,
  };
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Günlük İşlemler");
  sheet.addRow(dailyTransactionsReportColumns.map((c) => c.header));
  sheet.addRow(dailyTransactionsReportColumns.map((c) => row[c.field]));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
