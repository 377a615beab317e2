import {
  type Actor,
  awaitsApproval,
  type PaymentsStore,
  type StoredPayment,
  submittedBy,
  type TransitionResult,
} from "../payments/index.js";

/**
 * An approver's decision's outcome: a transition's, or `same_person` when the four-eyes rule
 * refused an approval.
 */
export type DecisionResult =
  | TransitionResult
  | { readonly ok: false; readonly reason: "same_person"; readonly payment: StoredPayment };

/**
 * An approver's approval: `pending → approved` for a payment waiting for one, which starts its
 * completion countdown. `status` when the payment is not waiting for an approver; `same_person`
 * when the workspace's four-eyes rule is on and the approver is the key that submitted it.
 */
export async function approvePayment(
  store: PaymentsStore,
  workspace: string,
  id: string,
  now: number,
  approver: { readonly actor?: Actor; readonly fourEyes?: boolean } = {},
): Promise<DecisionResult> {
  const payment = await store.payment(workspace, id);
  if (!payment) return { ok: false, reason: "not_found", payment: undefined };
  if (!awaitsApproval(payment)) return { ok: false, reason: "status", payment };
  if (approver.fourEyes && (!approver.actor || submittedBy(payment, approver.actor))) {
    return { ok: false, reason: "same_person", payment };
  }
  return store.transition(workspace, id, ["pending"], "approved", now, "dashboard", approver.actor);
}

/**
 * An approver's rejection: `pending → cancelled` (the seed's one way out of pending besides the
 * approval) for a payment waiting for an approver; nothing moves, no money had. The four-eyes rule
 * does not apply: the submitter may withdraw what they submitted, as they may cancel it.
 * `status` when the payment is not waiting for an approver (approved meanwhile, or an API payment).
 */
export async function rejectPayment(
  store: PaymentsStore,
  workspace: string,
  id: string,
  now: number,
  actor?: Actor,
): Promise<DecisionResult> {
  const payment = await store.payment(workspace, id);
  if (!payment) return { ok: false, reason: "not_found", payment: undefined };
  if (!awaitsApproval(payment)) return { ok: false, reason: "status", payment };
  // Compare-and-set on `pending`: an approval that wins the race leaves this one refused.
  return store.transition(workspace, id, ["pending"], "cancelled", now, "dashboard", actor);
}
