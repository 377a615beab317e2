import { foldForSearch } from "../infrastructure/text/search-fold.js";
import { DAY_MS, istanbulDate } from "../infrastructure/time/istanbul-time.js";
import type { PaymentRecord, StatementCandidates, StatementCandidatesQuery } from "../payments/index.js";
import type {
  LineOutcome,
  ReconciledLine,
  ReconciliationRun,
  Statement,
  StatementLine,
  UnmatchedPayment,
} from "./reconciliation-store.js";

/**
 * How far from its payment a statement entry's value date may be: from the day the payment completed
 * (its money moved) to this many days after the day it settled (a bank may book a Friday's payment on
 * Monday, or after a holiday), Istanbul dates.
 */
export const VALUE_DATE_DAYS_AFTER_SETTLEMENT = 4;

const DAY = 86_400_000;

/** Whether a value date lies in the payment's window (see VALUE_DATE_DAYS_AFTER_SETTLEMENT). */
export function inValueDateWindow(payment: PaymentRecord, valueDate: string): boolean {
  if (payment.completedAt === undefined || payment.settledAt === undefined) return false;
  const last = istanbulDate(payment.settledAt + VALUE_DATE_DAYS_AFTER_SETTLEMENT * DAY);
  return valueDate >= istanbulDate(payment.completedAt) && valueDate <= last;
}

export const LINE_OUTCOMES: readonly LineOutcome[] = [
  "matched",
  "already_reconciled",
  "amount_differs",
  "currency_differs",
  "no_payment",
  "not_settled",
  "ambiguous",
  "repeated_line",
  "credit_entry",
  "date_differs",
  "not_booked",
];

/** What separates words in a bank's narrative (a reference's own `-`, `/`, `.` and `_` do not). */
const WORD_BREAK = /[\s,;:()"'<>[\]{}|]+/;

/**
 * The keys a statement line may name a payment by: its own reference whole, then each word of its
 * narrative, as `foldForSearch` compares them (trimmed, NFC, case-insensitive by Turkish rules), so
 * `FATURA NO: İNV-2026-0007 ÖDEMESİ` names `INV-2026-0007`. A payment's reference is folded alike.
 */
export function referenceKeys(line: Pick<StatementLine, "reference" | "narrative">): string[] {
  const words = (line.narrative ?? "").split(WORD_BREAK).map((word) => word.replace(/[.]+$/, ""));
  return [...new Set([line.reference.trim(), ...words].filter(Boolean).map(foldForSearch))];
}

/** A payment's reference as a key (see referenceKeys). */
export const referenceKey = (reference: string) => foldForSearch(reference.trim());

/**
 * What the payments store is asked for a statement: every payment a line may name by reference, and
 * at least every settled payment whose value-date window (completion to a few days after settlement,
 * see inValueDateWindow) may hold one of its value dates; the matcher checks each.
 */
export function candidatesQuery(statement: Statement): StatementCandidatesQuery {
  const days = [...new Set(statement.lines.map((line) => Date.parse(`${line.valueDate}T00:00:00Z`) / DAY_MS))];
  // No line, no date: a window no payment is in.
  const [first, last] = days.length > 0 ? [Math.min(...days), Math.max(...days)] : [1, 0];
  return {
    referenceKeys: [...new Set(statement.lines.flatMap(referenceKeys))],
    completedByDay: last,
    settledFromDay: first - VALUE_DATE_DAYS_AFTER_SETTLEMENT,
  };
}

export interface StatementMatch {
  readonly run: ReconciliationRun;
  /** The payments to move from `settled` to `reconciled`, in line order. */
  readonly toReconcile: readonly PaymentRecord[];
}

/** The candidates by each key their reference is matched by (a reference may be shared: a list). */
function paymentsByReference(payments: readonly PaymentRecord[]): Map<string, PaymentRecord[]> {
  const byReference = new Map<string, PaymentRecord[]>();
  for (const payment of payments) {
    if (payment.reference === undefined) continue;
    const key = referenceKey(payment.reference);
    const list = byReference.get(key) ?? [];
    list.push(payment);
    byReference.set(key, list);
  }
  return byReference;
}

/** What makes two lines the same line (a bank's export repeated in one file): every field a line has. */
function lineIdentity(line: StatementLine): string {
  return JSON.stringify([
    line.reference,
    line.narrative,
    line.direction,
    line.amountMinor,
    line.currency,
    line.valueDate,
  ]);
}

/** A line with its outcome, and the payment it was judged against, if any. */
function judgedLine(line: StatementLine, outcome: LineOutcome, payment?: PaymentRecord): ReconciledLine {
  return {
    ...line,
    outcome,
    ...(payment ? { paymentId: payment.id, paymentStatus: payment.status, paymentAmountMinor: payment.amount } : {}),
  };
}

/** Settled payments of the statement's value dates that no line reconciled. */
function unmatchedSettled(
  settledOnValueDates: readonly PaymentRecord[],
  statement: Statement,
  reconciledNow: ReadonlySet<string>,
): UnmatchedPayment[] {
  const valueDates = new Set(statement.lines.map((line) => line.valueDate));
  return settledOnValueDates
    .filter(
      (p) =>
        p.status === "settled" &&
        p.settledAt !== undefined &&
        [...valueDates].some((date) => inValueDateWindow(p, date)) &&
        !reconciledNow.has(p.id),
    )
    .map((p) => ({
      paymentId: p.id,
      ...(p.reference === undefined ? {} : { reference: p.reference }),
      amountMinor: p.amount,
      currency: p.currency,
      settledAt: p.settledAt as number,
    }));
}

/**
 * The seed's reconciliation: a line matches the one payment with its reference when amount and
 * currency agree and the payment is settled. Everything else is reported line by line, and settled
 * payments of the statement's dates that no line matched are listed. Pure: the stores call it inside
 * their atomic section with what they read there.
 */
export function matchStatement(
  statement: Statement,
  candidates: StatementCandidates,
  at: number,
  repeatOf: string | undefined,
): StatementMatch {
  const byReference = paymentsByReference(candidates.byReference);
  const seenLines = new Set<string>();
  const reconciledNow = new Set<string>();
  const toReconcile: PaymentRecord[] = [];
  const lines: ReconciledLine[] = statement.lines.map((line) => {
    const identity = lineIdentity(line);
    const judged = (outcome: LineOutcome, payment?: PaymentRecord) => judgedLine(line, outcome, payment);
    if (line.bankStatus !== undefined) return judged("not_booked");
    if (seenLines.has(identity)) return judged("repeated_line");
    seenLines.add(identity);
    if (line.direction === "credit") return judged("credit_entry");
    // Every payment the line names by any key, once each: two different ones are ambiguous, never guessed.
    const named = [
      ...new Map(
        referenceKeys(line)
          .flatMap((key) => byReference.get(key) ?? [])
          .map((p) => [p.id, p]),
      ).values(),
    ];
    if (named.length === 0) return judged("no_payment");
    if (named.length > 1) return judged("ambiguous");
    const payment = named[0] as PaymentRecord;
    if (payment.status === "reconciled" || reconciledNow.has(payment.id)) {
      return judged("already_reconciled", payment);
    }
    if (payment.currency !== line.currency) return judged("currency_differs", payment);
    if (payment.amount !== line.amountMinor) return judged("amount_differs", payment);
    if (payment.status !== "settled") return judged("not_settled", payment);
    if (!inValueDateWindow(payment, line.valueDate)) return judged("date_differs", payment);
    reconciledNow.add(payment.id);
    toReconcile.push(payment);
    return judged("matched", payment);
  });
  const unmatched = unmatchedSettled(candidates.settledOnValueDates, statement, reconciledNow);
  const counts = Object.fromEntries(LINE_OUTCOMES.map((o) => [o, 0])) as Record<LineOutcome, number>;
  for (const line of lines) counts[line.outcome]++;
  return {
    run: {
      id: statement.id,
      at,
      sha256: statement.sha256,
      ...(repeatOf === undefined ? {} : { repeatOf }),
      counts,
      unmatchedCount: unmatched.length,
      lines,
      unmatched,
      ...(statement.warnings && statement.warnings.length > 0 ? { warnings: statement.warnings } : {}),
    },
    toReconcile,
  };
}
