import type { PaymentCreate } from "@payspec/payments-zod";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { preparePayment } from "./create-payment.js";
import {
  type Actor,
  type PaymentsStore,
  type StoredPayment,
  sameActor,
  type TransitionResult,
} from "./payments-store.js";

/**
 * The seed's dashboard paths, shared by the dashboard's pages and the control API (so tests and the
 * contract verifier can drive them over HTTP): a dashboard submit, and an approver's approval.
 */

/** Waiting for an approver: a dashboard payment made under the approval workflow, not yet approved. */
export function awaitsApproval(payment: StoredPayment): boolean {
  return payment.status === "pending" && payment.countdownFrom === undefined;
}

/**
 * A dashboard submit: the API's rules (throws their 4xx), then `pending` waiting for an approver when
 * the workspace has the approval workflow, or straight to `processing` (completing like any other)
 * when it has none.
 */
export async function submitFromDashboard(
  store: PaymentsStore,
  approvalWorkflow: WorkspaceSetting<boolean>,
  workspace: string,
  input: PaymentCreate,
  now: number,
  /** Who submits (kept on the payment's first history entry: the four-eyes rule compares it). */
  actor?: Actor,
): Promise<StoredPayment> {
  const { countdownFrom: _countdown, ...draft } = await preparePayment(
    (id) => store.account(workspace, id),
    input,
    now,
  );
  const workflow = await approvalWorkflow.get(workspace);
  return store.insert(
    workspace,
    workflow
      ? { ...draft, status: "pending", cause: "dashboard", ...(actor ? { actor } : {}) }
      : { ...draft, status: "processing", countdownFrom: now, cause: "dashboard", ...(actor ? { actor } : {}) },
  );
}

/** An approval's outcome: a transition's, or `same_person` when the four-eyes rule refused it. */
export type ApprovalResult =
  | TransitionResult
  | { readonly ok: false; readonly reason: "same_person"; readonly payment: StoredPayment };

/**
 * An approver's approval: `pending → approved` for a payment waiting for one, which starts its
 * completion countdown. `status` when the payment is not waiting for an approver; `same_person`
 * when the workspace's four-eyes rule is on and the approver is the key that submitted it.
 */
/** Whether `actor` submitted the payment (its first history entry is its creation): the four-eyes rule's question. */
export function submittedBy(payment: StoredPayment, actor: Actor): boolean {
  return sameActor(payment.history[0]?.actor, actor);
}

export async function approvePayment(
  store: PaymentsStore,
  workspace: string,
  id: string,
  now: number,
  approver: { readonly actor?: Actor; readonly fourEyes?: boolean } = {},
): Promise<ApprovalResult> {
  const payment = await store.payment(workspace, id);
  if (!payment) return { ok: false, reason: "not_found", payment: undefined };
  if (!awaitsApproval(payment)) return { ok: false, reason: "status", payment };
  if (approver.fourEyes && (!approver.actor || submittedBy(payment, approver.actor))) {
    return { ok: false, reason: "same_person", payment };
  }
  return store.transition(workspace, id, ["pending"], "approved", now, "dashboard", approver.actor);
}
