import type { PaymentsStore } from "../payments/index.js";
import { candidatesQuery, matchStatement } from "./match-statement.js";
import type { ReconciliationRun, ReconciliationStore, Statement } from "./reconciliation-store.js";

/** Runs kept in this process; the payments are reconciled through the payments' own store. */
export class MemoryReconciliationStore implements ReconciliationStore {
  readonly #payments: PaymentsStore;
  /** Each workspace's runs, oldest first. */
  readonly #runs = new Map<string, ReconciliationRun[]>();

  constructor(payments: PaymentsStore) {
    this.#payments = payments;
  }

  reconcile(workspace: string, statement: Statement, at: number): Promise<ReconciliationRun> {
    const runs = this.#runs.get(workspace) ?? [];
    // The payments store runs the matcher and this keeper with no await in between: one state, applied whole.
    return this.#payments.reconcileStatement(
      workspace,
      candidatesQuery(statement),
      at,
      (candidates) => {
        const repeatOf = runs.find((run) => run.sha256 === statement.sha256)?.id;
        const { run, toReconcile } = matchStatement(statement, candidates, at, repeatOf);
        return { reconcile: toReconcile, result: run };
      },
      async (run) => {
        runs.push(run);
        this.#runs.set(workspace, runs);
        return run;
      },
    );
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
