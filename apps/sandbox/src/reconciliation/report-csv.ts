import type { Writable } from "node:stream";
import { writeRecords } from "@payspec/client-core";
import type { ReconciliationRun } from "./reconciliation-store.js";
import { runToApi } from "./run-json.js";

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
  "direction",
  "narrative",
] as const;

/**
 * A run's report as CSV: one row per statement line with its outcome, then one `unmatched_payment`
 * row per settled payment of the statement's dates that no line matched.
 */
export async function writeReportCsv(run: ReconciliationRun, out: Writable): Promise<void> {
  const { lines, unmatched } = runToApi(run);
  async function* rows(): AsyncGenerator<Partial<Record<(typeof REPORT_COLUMNS)[number], string | number>>> {
    yield* lines;
    for (const payment of unmatched) yield { outcome: "unmatched_payment", payment_status: "settled", ...payment };
  }
  await writeRecords(rows(), out, "csv", REPORT_COLUMNS);
}
