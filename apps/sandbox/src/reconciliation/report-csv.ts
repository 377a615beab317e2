import type { Writable } from "node:stream";
import { writeRecords } from "@payspec/client-core";
import type { ReconciliationRun } from "../store/index.js";

export const REPORT_COLUMNS = [
  "line",
  "outcome",
  "reference",
  "amount_minor",
  "currency",
  "value_date",
  "payment_id",
  "payment_status",
  "settled_at",
] as const;

/**
 * A run's report as CSV: one row per statement line with its outcome, then one `unmatched_payment`
 * row per settled payment of the statement's dates that no line matched.
 */
export async function writeReportCsv(run: ReconciliationRun, out: Writable): Promise<void> {
  async function* rows(): AsyncGenerator<Partial<Record<(typeof REPORT_COLUMNS)[number], string | number>>> {
    for (const line of run.lines) {
      yield {
        line: line.line,
        outcome: line.outcome,
        reference: line.reference,
        amount_minor: line.amountMinor,
        currency: line.currency,
        value_date: line.valueDate,
        payment_id: line.paymentId,
        payment_status: line.paymentStatus,
      };
    }
    for (const payment of run.unmatched) {
      yield {
        outcome: "unmatched_payment",
        reference: payment.reference,
        amount_minor: payment.amountMinor,
        currency: payment.currency,
        payment_id: payment.paymentId,
        payment_status: "settled",
        settled_at: new Date(payment.settledAt).toISOString(),
      };
    }
  }
  await writeRecords(rows(), out, "csv", REPORT_COLUMNS);
}
