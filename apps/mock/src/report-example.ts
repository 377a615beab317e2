import type { CardPayment } from "@payspec/card-gateway-zod";
import { dailyReportFile } from "@payspec/server-kit";
import { cardGatewaySpec, specExamples } from "@payspec/specs";

/**
 * Prism cannot serve a binary example, so the mock builds the daily report itself: the spec's twelve
 * Turkish headers, and one row from the spec's successful card payment example.
 */
export async function exampleDailyReport(): Promise<Buffer> {
  const example = specExamples(cardGatewaySpec).find(
    (e) => e.operationId === "createCardPayment" && e.part === "200" && e.name.includes('"success"'),
  );
  if (!example)
    throw new Error("The gateway spec lost its 'success' card payment example; the mock's report is built from it.");
  const payment = (example.value as { response: CardPayment }).response;
  const rate = payment.products[0]?.commissionRate ?? 0;
  return dailyReportFile([{ payment, commission: Math.round(payment.amount * rate) / 100 }]);
}
