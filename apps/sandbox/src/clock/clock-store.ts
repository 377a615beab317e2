/**
 * The sandbox clocks' offsets from real time, per scope. Shared with the rest of the state, so that
 * instances sharing a store agree on expiry and completion.
 */
export interface ClockStore {
  offsetMs(scope: string): Promise<number>;
  /** The offset at once, from a store that holds offsets in this process; left out by one that must ask a database. */
  offsetMsKnown?(scope: string): number;
  /**
   * This process's last reading of the offset, at once (undefined before the first), for a write that
   * the store checks against the offset again as it stores it (see NewPayment.clockOffsetMs).
   */
  lastOffsetMs?(scope: string): number | undefined;
  /**
   * Adds `ms` (negative: back) to the scope's offset unless the sum would pass `maxMs` or fall below
   * zero (before real time); the offset after, and whether it moved.
   */
  advance(scope: string, ms: number, maxMs: number): Promise<{ moved: boolean; offsetMs: number }>;
  /** One scope, or every scope, back to real time. */
  reset(scope?: string): Promise<void>;
}
