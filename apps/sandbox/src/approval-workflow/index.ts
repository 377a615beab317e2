/**
 * The approval workflow: the workspace's setting, a dashboard submit that waits for an approver
 * while it is on, and the approver's approval (pending → approved), on the control API and the
 * Settings page's switch, and the Approvals page (the queue, its count in the navigation). The
 * payments pages show the approve buttons with `awaitsApproval`.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { registerSettingToggle } from "../infrastructure/workspace-settings/setting-toggle.js";
import { type ApprovalDeps, registerApprovalControls } from "./approval-controls.js";
import { approvalsPage } from "./approvals-pages.js";

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
