import type { PaymentsStore } from "./payments-store.js";

/**
 * What the passing of time does to a workspace, applied before anything reads it: payments whose
 * delay has passed complete (or fail), then completed payments past a settlement cut-off settle.
 */
export async function applyElapsedTime(
  store: PaymentsStore,
  workspace: string,
  now: number,
  completeAfterMs: number,
): Promise<void> {
  // Nearly every read finds nothing due: where the store can ask that of both at once, one round trip
  // to the database answers it instead of two.
  if (store.somethingElapsed && !(await store.somethingElapsed(workspace, now, completeAfterMs))) return;
  await store.completeDue(workspace, now, completeAfterMs);
  await store.settleDue(workspace, now);
}

/** Time's effects on a workspace, for the features that read its payments (reconciliation, reports, pages). */
export interface ElapsedTime {
  apply(workspace: string, now: number): Promise<void>;
}

export function elapsedTime(store: PaymentsStore, completeAfterMs: number): ElapsedTime {
  return { apply: (workspace, now) => applyElapsedTime(store, workspace, now, completeAfterMs) };
}
