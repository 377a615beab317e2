import type { PaymentStatus } from "@payspec/payments-zod";
import { stretchOf } from "./stretches.js";

/**
 * Where along a workspace's listing each status can be found, in memory: its payments counted by
 * status per stretch of 1,024 consecutive payments, with the latest version at which any payment of
 * the stretch changed status. A listing filtered by status skips every stretch that holds none of
 * that status now and has not changed since its snapshot, so a rare status (or one nobody has) is
 * read in a few thousand steps rather than one per payment; PostgreSQL does the same with its
 * `(workspace, status, seq)` index.
 */
export class StatusStretches {
  readonly #counts = new Map<PaymentStatus, number[]>();
  readonly #changedAt: number[] = [];

  /** The payment at `index` is counted in `status` (made in it). */
  add(index: number, status: PaymentStatus): void {
    const counts = this.#counts.get(status) ?? [];
    this.#counts.set(status, counts);
    const stretch = stretchOf(index);
    counts[stretch] = (counts[stretch] ?? 0) + 1;
  }

  /** The payment at `index` went from one status to another at `version`. */
  move(index: number, from: PaymentStatus, to: PaymentStatus, version: number): void {
    const stretch = stretchOf(index);
    const counts = this.#counts.get(from);
    if (counts) counts[stretch] = (counts[stretch] ?? 1) - 1;
    this.add(index, to);
    this.#changedAt[stretch] = Math.max(this.#changedAt[stretch] ?? 0, version);
  }

  /**
   * Whether the stretch may hold a payment that was in `status` at `asOfVersion`: it holds one now, or
   * one of its payments changed since (and may have been in it then).
   */
  mayHold(stretch: number, status: PaymentStatus, asOfVersion: number): boolean {
    return (this.#counts.get(status)?.[stretch] ?? 0) > 0 || (this.#changedAt[stretch] ?? 0) > asOfVersion;
  }
}
