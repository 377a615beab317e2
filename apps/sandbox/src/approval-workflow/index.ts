/**
 * The approval workflow: the workspace's settings (the workflow, the four-eyes rule), the approver's
 * decisions (approve: pending → approved; reject: pending → cancelled), on the control API, the
 * Settings page's switches, the Approvals page (the queue, its count in the navigation) and a
 * payment's own Approve button. A dashboard submit waits while the workflow is on (the payments
 * feature's new-payment page reads the setting; `awaitsApproval` says which payments wait).
 */
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { paymentsDeclaration } from "../payments/index.js";
import { registerSettingToggle } from "../workspaces/index.js";
import { type ApprovalDeps, registerApprovalControls } from "./approval-controls.js";
import { approvalsPage } from "./approvals-pages.js";
import type { ApprovalStores } from "./open-approval-stores.js";
import { approveOnPaymentPage } from "./payment-approval-pages.js";

export { approvalsWaiting } from "./approvals-pages.js";
export { type ApprovalStores, openApprovalStores } from "./open-approval-stores.js";

export function approvalWorkflowFeature(deps: ApprovalDeps): SandboxFeature {
  return {
    name: "approval-workflow",
    controlRoutes: (control, ctx) => registerApprovalControls(control, deps, ctx),
    dashboardPages: (dashboard, ctx) => {
      registerSettingToggle(dashboard, ctx, {
        path: "approval-workflow",
        setting: deps.approvalWorkflow,
        done: "workflow",
      });
      registerSettingToggle(dashboard, ctx, { path: "four-eyes", setting: deps.fourEyes, done: "four-eyes" });
      approvalsPage(deps)(dashboard, ctx);
      approveOnPaymentPage(deps)(dashboard, ctx);
    },
    resetWorkspace: async (apiKey) => {
      await deps.approvalWorkflow.clear(apiKey);
      await deps.fourEyes.clear(apiKey);
    },
    reset: async () => {
      await deps.approvalWorkflow.clear();
      await deps.fourEyes.clear();
    },
  };
}

export const approvalWorkflowDeclaration: FeatureDeclaration<undefined, ApprovalStores> = {
  name: "approval-workflow",
  needs: [paymentsDeclaration, clockDeclaration],
  build: ({ stores, use }) => ({
    provides: undefined,
    feature: approvalWorkflowFeature({
      payments: use(paymentsDeclaration).payments,
      approvalWorkflow: stores.approvalWorkflow,
      fourEyes: stores.fourEyes,
      clocks: use(clockDeclaration),
    }),
  }),
};
