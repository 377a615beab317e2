import { zPaymentStatus } from "@payspec/payments-zod";
import { ApiFailure, parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import type { PaymentsStore, StoredPayment } from "../store/payments-store.js";

const forceStatus = z.object({ body: z.strictObject({ status: zPaymentStatus }) });
/** Every status but `reconciled`, which is final (see forcePaymentStatus). */
const FORCEABLE_FROM = zPaymentStatus.options.filter((status) => status !== "reconciled");

/**
 * A payment forced into any status (`input`: `{status}`) at `at`, balances kept true, for the control
 * API and the payment's page alike; the payment, or the ApiFailure that says why not and what to do.
 */
export async function forcePaymentStatus(
  payments: PaymentsStore,
  workspace: string,
  id: string,
  input: unknown,
  at: number,
): Promise<StoredPayment> {
  const { body } = parseRequest(forceStatus, { body: input });
  // A reconciled payment is matched to a bank statement line: moving it would leave that run's
  // report saying something no longer true, so it is final here (the seed's last state).
  const result = await payments.transition(workspace, id, FORCEABLE_FROM, body.status, at, "control");
  if (result.ok) return result.payment;
  if (result.reason === "not_found") {
    throw new ApiFailure("not_found", `No payment ${id} in this workspace.`, { param: "id" });
  }
  if (result.reason === "status") {
    throw new ApiFailure(
      "invalid_request",
      `Payment ${id} is reconciled: a reconciliation run matched it to a statement line, so its status can no longer be forced. Reset the workspace to start again.`,
      { status: 409, param: "status" },
    );
  }
  const account = body.status === "completed" ? "debit account" : "account to take the money back from";
  throw new ApiFailure(
    "invalid_request",
    `Payment ${id} cannot go from ${result.payment.status} to ${body.status}: the ${account} cannot cover it, and balances must always match completed payments.`,
    { status: 409, param: "status" },
  );
}
