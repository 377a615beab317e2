import { zPaymentStatus } from "@payspec/payments-zod";
import { ApiFailure, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../clock/index.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { PaymentsStore } from "./payments-store.js";
import { paymentToApi } from "./serialize.js";

const forceStatus = z.object({ body: z.strictObject({ status: zPaymentStatus }) });
/** Every status but `reconciled`, which is final (see the forced-status route). */
const FORCEABLE_FROM = zPaymentStatus.options.filter((status) => status !== "reconciled");

/** `POST /_sandbox/payments/:id/status`: a payment forced into any status, balances kept true. */
export function registerPaymentControls(
  control: FastifyInstance,
  { payments, clocks }: { readonly payments: PaymentsStore; readonly clocks: SandboxClocks },
  ctx: ControlContext,
): void {
  control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/status", async (request) => {
    const { body } = parseRequest(forceStatus, { body: request.body });
    const scope = ctx.scopeOf(request);
    const id = request.params.id;
    if (scope.kind !== "workspace") {
      throw new ApiFailure("not_found", `No payment ${id}: forcing a status needs the workspace's API key.`, {
        param: "id",
      });
    }
    const at = await clocks.now(ctx.clockScopeOf(request));
    // A reconciled payment is matched to a bank statement line: moving it would leave that run's
    // report saying something no longer true, so it is final here (the seed's last state).
    const result = await payments.transition(scope.apiKey, id, FORCEABLE_FROM, body.status, at, "control");
    if (result.ok) return paymentToApi(result.payment);
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
  });
}
