import type { MemoryLedger } from "../payments/index.js";
import { matchStatement, referenceKey, referenceKeys } from "./match-statement.js";
import type { ReconciliationRun, ReconciliationStore, Statement } from "./reconciliation-store.js";

/** Runs kept in this process, beside the in-memory payments they reconcile. */
export class MemoryReconciliationStore implements ReconciliationStore {
  readonly #payments: { ledger(workspace: string): MemoryLedger };
  /** Each workspace's runs, oldest first. */
  readonly #runs = new Map<string, ReconciliationRun[]>();

  constructor(payments: { ledger(workspace: string): MemoryLedger }) {
    this.#payments = payments;
  }

  async reconcile(workspace: string, statement: Statement, at: number): Promise<ReconciliationRun> {
    const ledger = this.#payments.ledger(workspace);
    const runs = this.#runs.get(workspace) ?? [];
    // No await from here to the end: the run sees one state and is applied whole.
    const keys = new Set(statement.lines.flatMap(referenceKeys));
    const byReference = ledger.payments.filter((p) => p.reference !== undefined && keys.has(referenceKey(p.reference)));
    const settledOnValueDates = ledger.payments.filter((p) => p.status === "settled");
    const repeatOf = runs.find((run) => run.sha256 === statement.sha256)?.id;
    const { run, toReconcile } = matchStatement(statement, { byReference, settledOnValueDates }, at, repeatOf);
    for (const { id } of toReconcile) {
      const payment = ledger.byId(id);
      if (payment) ledger.move(payment, "reconciled", at, "reconciliation");
    }
    runs.push(run);
    this.#runs.set(workspace, runs);
    return run;
  }

  async runs(workspace: string) {
    return [...(this.#runs.get(workspace) ?? [])].reverse().map(({ lines: _l, unmatched: _u, ...summary }) => summary);
  }

  async run(workspace: string, id: string) {
    return this.#runs.get(workspace)?.find((run) => run.id === id);
  }

  async deleteFor(workspace?: string): Promise<void> {
    if (workspace === undefined) this.#runs.clear();
    else this.#runs.delete(workspace);
  }
}
