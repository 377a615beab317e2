import type { PaymentsStore } from "../store/index.js";

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
