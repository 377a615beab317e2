import type { SandboxClocks } from "../../clock/index.js";
import type { PaymentsStore, WithElapsed } from "../store/payments-store.js";

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
  await completeAndSettle(store, workspace, now, completeAfterMs, chunks);
}

/** Completion, then settlement, as of `now`: what time does once something may be due. */
async function completeAndSettle(
  store: PaymentsStore,
  workspace: string,
  now: number,
  completeAfterMs: number,
  chunks?: number,
): Promise<void> {
  await store.completeDue(workspace, now, completeAfterMs, chunks);
  await store.settleDue(workspace, now, chunks);
}

/**
 * A read's clock and time's effects on its workspace, as `clocks.now` then `applyElapsedTime` give them,
 * in one round trip instead of two where the store asks a database whether anything is due: that
 * question goes as of this process's last reading of the clock while the clock is read. When the
 * clock has not moved since that reading, the answer holds and the reading is the read's now; when it
 * has (another instance moved it), time's effects are applied as of the clock just read. Returns now.
 */
export async function nowAfterElapsedTime(
  clocks: SandboxClocks,
  scope: string,
  store: PaymentsStore,
  workspace: string,
  completeAfterMs: number,
  chunks?: number,
): Promise<number> {
  const last = clocks.lastReading(scope);
  if (!last || !store.somethingElapsed) {
    const now = await clocks.now(scope);
    await applyElapsedTime(store, workspace, now, completeAfterMs, chunks);
    return now;
  }
  const [clock, due] = await Promise.all([
    clocks.read(scope),
    store.somethingElapsed(workspace, last.now, completeAfterMs),
  ]);
  if (clock.offsetMs !== last.offsetMs) {
    await applyElapsedTime(store, workspace, clock.now, completeAfterMs, chunks);
    return clock.now;
  }
  if (due) await completeAndSettle(store, workspace, last.now, completeAfterMs, chunks);
  return last.now;
}

/**
 * A read after nowAfterElapsedTime, in one round trip instead of two where the store can send the
 * read with that function's question (`withElapsed`: undefined where it cannot): the read goes as of
 * this process's last reading of the clock and says what it saw of the clock and of time's work. When
 * the clock had not moved and nothing was due, its value stands; otherwise time's effects are applied
 * as nowAfterElapsedTime applies them and the read is made again (`alone`). Returns now and the value.
 */
export async function readAfterElapsedTime<T>(
  clocks: SandboxClocks,
  scope: string,
  store: PaymentsStore,
  workspace: string,
  completeAfterMs: number,
  withElapsed: (asOf: number) => Promise<WithElapsed<T>> | undefined,
  alone: () => Promise<T>,
): Promise<{ now: number; value: T }> {
  const last = clocks.lastReading(scope);
  const read = last && withElapsed(last.now);
  if (last && read) {
    const seen = await read;
    if (seen.offsetMs === last.offsetMs && !seen.due) return { now: last.now, value: seen.value };
  }
  const now = await nowAfterElapsedTime(clocks, scope, store, workspace, completeAfterMs, REQUEST_CHUNKS);
  return { now, value: await alone() };
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
