import { zPaymentCreate } from "@payspec/payments-zod";
import { ApiFailure, assertStorableText, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../infrastructure/clock/clock.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import { registerSettingControl } from "../infrastructure/workspace-settings/setting-control.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { approvePayment, type PaymentsStore, paymentToApi, submitFromDashboard } from "../payments/index.js";

const dashboardSubmit = z.object({ body: zPaymentCreate });

export interface ApprovalDeps {
  readonly payments: PaymentsStore;
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  readonly clocks: SandboxClocks;
}

/**
 * The dashboard's paths over HTTP (the seed's state table): its approval-workflow setting, a
 * dashboard submit, an approver's approval. Tests and the contract verifier drive them here.
 */
export function registerApprovalControls(control: FastifyInstance, deps: ApprovalDeps, ctx: ControlContext): void {
  const { payments, approvalWorkflow, clocks } = deps;
  registerSettingControl(control, ctx, {
    path: "approval-workflow",
    setting: approvalWorkflow,
    what: "The approval workflow",
  });

  control.post("/_sandbox/payments", async (request, reply) => {
    const key = ctx.workspaceOf(request, "A dashboard submit");
    assertStorableText(request.body);
    const { body } = parseRequest(dashboardSubmit, { body: request.body });
    const now = await clocks.now(ctx.clockScopeOf(request));
    const payment = await submitFromDashboard(payments, approvalWorkflow, key, body, now);
    return reply.code(201).send(paymentToApi(payment));
  });

  control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/approve", async (request) => {
    const key = ctx.workspaceOf(request, "Approving");
    const id = request.params.id;
    const result = await approvePayment(payments, key, id, await clocks.now(ctx.clockScopeOf(request)));
    if (result.ok) return paymentToApi(result.payment);
    if (result.reason === "not_found") {
      throw new ApiFailure("not_found", `No payment ${id} in this workspace.`, { param: "id" });
    }
    throw new ApiFailure(
      "invalid_request",
      `Payment ${id} is not waiting for an approver (it is ${result.payment.status}); only a dashboard payment made with the approval workflow on can be approved, once.`,
      { status: 409 },
    );
  });
}
