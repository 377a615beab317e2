import type { ReconciliationRun, ReconciliationSummary } from "./reconciliation-store.js";

/** A run as the control API shows it, without its lines. */
export function summaryToApi(run: ReconciliationSummary) {
  return {
    id: run.id,
    at: new Date(run.at).toISOString(),
    sha256: run.sha256,
    ...(run.repeatOf === undefined ? {} : { repeat_of: run.repeatOf }),
    counts: run.counts,
    unmatched_payments: run.unmatchedCount,
  };
}

/** A run as the control API shows it: the summary, each line's outcome, the settled payments no line matched. */
export function runToApi(run: ReconciliationRun) {
  return {
    ...summaryToApi(run),
    lines: run.lines.map((line) => ({
      line: line.line,
      outcome: line.outcome,
      reference: line.reference,
      amount_minor: line.amountMinor,
      currency: line.currency,
      value_date: line.valueDate,
      ...(line.direction === undefined ? {} : { direction: line.direction }),
      ...(line.narrative === undefined ? {} : { narrative: line.narrative }),
      ...(line.bankStatus === undefined ? {} : { bank_status: line.bankStatus }),
      ...(line.paymentId === undefined
        ? {}
        : {
            payment_id: line.paymentId,
            payment_status: line.paymentStatus,
            ...(line.paymentAmountMinor === undefined ? {} : { payment_amount_minor: line.paymentAmountMinor }),
          }),
    })),
    unmatched: run.unmatched.map((p) => ({
      payment_id: p.paymentId,
      ...(p.reference === undefined ? {} : { reference: p.reference }),
      amount_minor: p.amountMinor,
      currency: p.currency,
      settled_at: new Date(p.settledAt).toISOString(),
    })),
    ...(run.warnings && run.warnings.length > 0 ? { warnings: run.warnings } : {}),
  };
}
