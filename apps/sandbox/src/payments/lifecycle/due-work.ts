import { type SandboxClocks, workspaceScope } from "../../clock/index.js";
import { BackgroundWork } from "../../infrastructure/background/background-work.js";
import type { PaymentsStore } from "../store/payments-store.js";
import { applyElapsedTime } from "./elapsed-time.js";

/** How often each instance looks for payments that fell due while nobody asked. */
const DUE_WORK_INTERVAL_MS = 250;

interface DueWorkDeps {
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  readonly workspaceKeys: readonly string[];
  readonly completeAfterMs: number;
}

/**
 * Completion and settlement in the background: every instance, now and again, brings each workspace
 * up to its clock, chunk by chunk under the workspace's lock (instances sharing a database take
 * turns, and each payment moves once). A request does only one chunk itself (REQUEST_CHUNKS), so
 * however many payments fell due at once, no request waits for more than that.
 */
export class DueWork extends BackgroundWork {
  readonly #deps: DueWorkDeps;

  constructor(deps: DueWorkDeps) {
    super("payments-due", DUE_WORK_INTERVAL_MS);
    this.#deps = deps;
  }

  protected async runOnce(): Promise<void> {
    const deps = this.#deps;
    for (const key of deps.workspaceKeys) {
      const now = await deps.clocks.now(workspaceScope(key));
      // A store that holds its payments in this process answers at once when nothing is due.
      if (deps.payments.nothingElapsed?.(key, now, deps.completeAfterMs) === true) continue;
      await applyElapsedTime(deps.payments, key, now, deps.completeAfterMs);
    }
  }

  /** Payments due and not yet completed, every workspace together, at each one's clock (for `/metrics`). */
  async backlog(): Promise<number> {
    let due = 0;
    for (const key of this.#deps.workspaceKeys) {
      due += await this.#deps.payments.dueBacklog(
        key,
        await this.#deps.clocks.now(workspaceScope(key)),
        this.#deps.completeAfterMs,
      );
    }
    return due;
  }
}
