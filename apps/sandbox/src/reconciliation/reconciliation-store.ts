import type { PaymentStatus } from "@payspec/payments-zod";

/** One line of a bank statement, as read from its file (the statement format is ours: see the sandbox README). */
export interface StatementLine {
  /** 1 for the first line after the header: what a report and an error name. */
  readonly line: number;
  /**
   * The entry's own reference: our CSV's reference column, or a bank file's structured one (camt.053's
   * EndToEndId or creditor reference, MT940's customer reference); "" when it has none.
   */
  readonly reference: string;
  readonly amountMinor: number;
  readonly currency: string;
  /** yyyy-MM-dd: the day the bank says the money settled. */
  readonly valueDate: string;
  /** Money out of the account (a payment of ours) or into it; our CSV's lines are payments out. */
  readonly direction?: "debit" | "credit";
  /** The bank's free text for the entry (card numbers masked), where references often hide. */
  readonly narrative?: string;
  /** The bank's status of an entry it has not booked (camt.053 `Sts` `PDNG`, `INFO`): never matched. */
  readonly bankStatus?: string;
}

export interface Statement {
  readonly id: string;
  /** SHA-256 of the file's bytes: the same file imported again is recognised. */
  readonly sha256: string;
  readonly lines: readonly StatementLine[];
  /** What does not add up in the file but did not stop it being read (an MT940's balances). */
  readonly warnings?: readonly string[];
}

/** What became of one statement line. */
export type LineOutcome =
  | "matched"
  | "already_reconciled"
  | "amount_differs"
  | "currency_differs"
  | "no_payment"
  | "not_settled"
  | "ambiguous"
  | "repeated_line"
  /** Money into the account: not one of the workspace's payments (they are debits). */
  | "credit_entry"
  /** The value date is outside the payment's window (completion to a few days after settlement). */
  | "date_differs"
  /** The bank has not booked the entry (pending, or for information only): kept in the report, never matched. */
  | "not_booked";

export interface ReconciledLine extends StatementLine {
  readonly outcome: LineOutcome;
  /** The payment the line names, when exactly one has its reference. */
  readonly paymentId?: string;
  /** That payment's status before the run. */
  readonly paymentStatus?: PaymentStatus;
  /** That payment's amount (minor units), beside the statement's own. */
  readonly paymentAmountMinor?: number;
}

/** A settled payment of one of the statement's value dates that no line matched. */
export interface UnmatchedPayment {
  readonly paymentId: string;
  readonly reference?: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly settledAt: number;
}

export interface ReconciliationSummary {
  readonly id: string;
  readonly at: number;
  readonly sha256: string;
  /** The earlier run of the same file, when this one repeats it. */
  readonly repeatOf?: string;
  readonly counts: Readonly<Record<LineOutcome, number>>;
  readonly unmatchedCount: number;
}

export interface ReconciliationRun extends ReconciliationSummary {
  readonly lines: readonly ReconciledLine[];
  readonly unmatched: readonly UnmatchedPayment[];
  /** The statement's warnings (see Statement). */
  readonly warnings?: readonly string[];
}

/** Where a workspace's reconciliation runs are kept, and where a statement is reconciled. */
export interface ReconciliationStore {
  /**
   * Matches a statement's lines to the workspace's payments (`matchStatement`) and moves each matched
   * payment from `settled` to `reconciled`, recording the run: all of it, or (on any failure) none.
   */
  reconcile(workspace: string, statement: Statement, at: number): Promise<ReconciliationRun>;
  /** The workspace's runs, newest first, without their lines. */
  runs(workspace: string): Promise<readonly ReconciliationSummary[]>;
  run(workspace: string, id: string): Promise<ReconciliationRun | undefined>;
  /** One workspace's runs gone (a reset), or (no argument) every workspace's. */
  deleteFor(workspace?: string): Promise<void>;
}
