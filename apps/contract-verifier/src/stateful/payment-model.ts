/**
 * The executable model of the seeds' rules that a stateful run holds the provider to: which statuses
 * a payment can reach by itself as time passes, which it can be cancelled from, and what a replayed
 * card payment must return.
 */

/**
 * Statuses a payment may reach without anyone acting, only because time passes (seed state table):
 * completion, then settlement at a cut-off. `reconciled` is never among them: only a statement
 * import reconciles, and a stateful run imports none.
 */
const BY_ITSELF: Record<string, readonly string[]> = {
  pending: ["processing", "completed", "failed", "settled"],
  approved: ["processing", "completed", "failed", "settled"],
  processing: ["completed", "failed", "settled"],
  completed: ["settled"],
};

/** The seed: pending and approved payments can be cancelled; nothing else can. */
export const CANCELLABLE: readonly string[] = ["pending", "approved"];

export interface ModelPayment {
  status: string;
  readonly amount: number;
  /**
   * Made by a dashboard submit with the approval workflow on: while pending it waits for an approver
   * and goes nowhere by itself (the seed: "Waits for approver action").
   */
  awaitsApproval?: boolean;
}

/** True when `observed` is the known status, or one the payment may have reached by itself since. */
export function mayHaveBecome(known: ModelPayment, observed: string): boolean {
  if (known.status === observed) return true;
  if (known.status === "pending" && known.awaitsApproval) return false;
  return (BY_ITSELF[known.status] ?? []).includes(observed);
}

/** What the model knows: the payments this sequence made, and the card payments by referenceId. */
export interface PaymentModel {
  readonly payments: Map<string, ModelPayment>;
  readonly cardPayments: Map<string, { readonly id: string; readonly body: Record<string, unknown> }>;
  /** A token from a login of this sequence (the real one lives in the real state). */
  loggedIn: boolean;
  /** The sandbox clock was advanced, so pending payments may have completed or failed. */
  clockAdvanced: boolean;
}

export function emptyModel(): PaymentModel {
  return { payments: new Map(), cardPayments: new Map(), loggedIn: false, clockAdvanced: false };
}

/** The model disagrees with the provider: the message says what the model expected and what came. */
export class ModelBroken extends Error {}
