import type { PaymentCreate } from "@payspec/payments-zod";
import type { WorkspaceSetting } from "../../workspaces/index.js";
import { type Actor, type PaymentsStore, type StoredPayment, sameActor } from "../store/payments-store.js";
import { preparePayment } from "./create-payment.js";

/**
 * The seed's dashboard submit, shared by the new-payment page and the control API (so tests and the
 * contract verifier can drive it over HTTP). The approval workflow's feature approves or rejects
 * what waits.
 */

/** Whether `actor` submitted the payment (its first history entry is its creation): the four-eyes rule's question. */
export function submittedBy(payment: StoredPayment, actor: Actor): boolean {
  return sameActor(payment.history[0]?.actor, actor);
}

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
