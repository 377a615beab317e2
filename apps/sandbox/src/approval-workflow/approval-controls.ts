import { zPaymentCreate } from "@payspec/payments-zod";
import { ApiFailure, assertStorableText, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../clock/index.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import { type PaymentsStore, paymentToApi, submitFromDashboard } from "../payments/index.js";
import { registerSettingControl, type WorkspaceSetting } from "../workspaces/index.js";
import { approvePayment, type DecisionResult, rejectPayment } from "./approver-decisions.js";

const dashboardSubmit = z.object({ body: zPaymentCreate });

/** Why an approval was refused under the four-eyes rule, and what to do. */
export const FOUR_EYES_REFUSAL =
  "The four-eyes rule is on: a payment must be approved with another API key than the one that submitted it. Sign in (or call) with another key of this workspace; create one under Settings → API keys.";

export interface ApprovalDeps {
  readonly payments: PaymentsStore;
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  /** The four-eyes rule: approved only by another key than the submitter's. */
  readonly fourEyes: WorkspaceSetting<boolean>;
  readonly clocks: SandboxClocks;
}

/**
 * The dashboard's paths over HTTP (the seed's state table): its approval-workflow setting, a
 * dashboard submit, an approver's approval or rejection. Tests and the contract verifier drive them here.
 */
export function registerApprovalControls(control: FastifyInstance, deps: ApprovalDeps, ctx: ControlContext): void {
  const { payments, approvalWorkflow, fourEyes, clocks } = deps;
  registerSettingControl(control, ctx, {
    path: "approval-workflow",
    setting: approvalWorkflow,
    what: "The approval workflow",
  });
  registerSettingControl(control, ctx, { path: "four-eyes", setting: fourEyes, what: "The four-eyes rule" });
  /** Who calls: the key's fingerprint and mask, as the control API's authentication found it. */
  const actorOf = (request: FastifyRequest) => {
    const scope = ctx.scopeOf(request);
    return scope.kind === "workspace" ? scope.signer : undefined;
  };

  control.post("/_sandbox/payments", async (request, reply) => {
    const key = ctx.workspaceOf(request, "A dashboard submit");
    assertStorableText(request.body);
    const { body } = parseRequest(dashboardSubmit, { body: request.body });
    const now = await clocks.now(ctx.clockScopeOf(request));
    const payment = await submitFromDashboard(payments, approvalWorkflow, key, body, now, actorOf(request));
    reply.code(201);
    return paymentToApi(payment);
  });

  /** A decision's answer: the payment, or the control API's error saying why not and what to do. */
  const answer = (id: string, result: DecisionResult, doing: string) => {
    if (result.ok) return paymentToApi(result.payment);
    if (result.reason === "not_found") {
      throw new ApiFailure("not_found", `No payment ${id} in this workspace.`, { param: "id" });
    }
    if (result.reason === "same_person") {
      throw new ApiFailure("forbidden", FOUR_EYES_REFUSAL, { status: 403 });
    }
    throw new ApiFailure(
      "invalid_request",
      `Payment ${id} is not waiting for an approver (it is ${result.payment.status}); only a dashboard payment made with the approval workflow on can be ${doing}, once.`,
      { status: 409 },
    );
  };

  control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/approve", async (request) => {
    const key = ctx.workspaceOf(request, "Approving");
    const id = request.params.id;
    const actor = actorOf(request);
    const result = await approvePayment(payments, key, id, await clocks.now(ctx.clockScopeOf(request)), {
      fourEyes: await fourEyes.get(key),
      ...(actor ? { actor } : {}),
    });
    return answer(id, result, "approved");
  });

  control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/reject", async (request) => {
    const key = ctx.workspaceOf(request, "Rejecting");
    const id = request.params.id;
    const now = await clocks.now(ctx.clockScopeOf(request));
    return answer(id, await rejectPayment(payments, key, id, now, actorOf(request)), "rejected");
  });
}
