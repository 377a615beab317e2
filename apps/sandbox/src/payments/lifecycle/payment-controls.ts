import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import type { SandboxClocks } from "../../clock/index.js";
import type { ControlContext } from "../../infrastructure/control-api/control-context.js";
import { paymentToApi } from "../serialize.js";
import type { PaymentsStore } from "../store/payments-store.js";
import { forcePaymentStatus } from "./force-status.js";

/** `POST /_sandbox/payments/:id/status`: a payment forced into any status, balances kept true. */
export function registerPaymentControls(
  control: FastifyInstance,
  { payments, clocks }: { readonly payments: PaymentsStore; readonly clocks: SandboxClocks },
  ctx: ControlContext,
): void {
  control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/status", async (request) => {
    const scope = ctx.scopeOf(request);
    const id = request.params.id;
    if (scope.kind !== "workspace") {
      throw new ApiFailure("not_found", `No payment ${id}: forcing a status needs the workspace's API key.`, {
        param: "id",
      });
    }
    const at = await clocks.now(ctx.clockScopeOf(request));
    return paymentToApi(await forcePaymentStatus(payments, scope.apiKey, id, request.body, at));
  });
}
