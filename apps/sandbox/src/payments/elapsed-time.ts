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
  /** At most this many of the store's chunks of each (a request's share: see DueWork), else all. */
  chunks?: number,
): Promise<void> {
  // Nearly every read finds nothing due: where the store can ask that of both at once, one round trip
  // to the database answers it instead of two.
  if (store.somethingElapsed && !(await store.somethingElapsed(workspace, now, completeAfterMs))) return;
  await store.completeDue(workspace, now, completeAfterMs, chunks);
  await store.settleDue(workspace, now, chunks);
}

/**
 * A request's share of time's work: one chunk of completion and one of settlement, so that however
 * many payments fell due at once, no request waits for more than that; the due-work loop does the rest.
 */
export const REQUEST_CHUNKS = 1;

/** Time's effects on a workspace, for the features that read its payments (reconciliation, reports, pages). */
export interface ElapsedTime {
  /** All of it (what must be exact: a reconciliation), or `chunks` of it (a page's share). */
  apply(workspace: string, now: number, chunks?: number): Promise<void>;
}

export function elapsedTime(store: PaymentsStore, completeAfterMs: number): ElapsedTime {
  return { apply: (workspace, now, chunks) => applyElapsedTime(store, workspace, now, completeAfterMs, chunks) };
}
