import type { OpenStores } from "../infrastructure/features/store-backend.js";
import { openWorkspaceSetting, type WorkspaceSetting } from "../workspaces/index.js";
import { APPROVAL_FOUR_EYES, APPROVAL_WORKFLOW } from "./approval-workflow-setting.js";

export interface ApprovalStores {
  /** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  /** Whether a payment must be approved with another API key than its submitter's (off in a fresh workspace). */
  readonly fourEyes: WorkspaceSetting<boolean>;
}

export const openApprovalStores: OpenStores<ApprovalStores> = (backend) => ({
  approvalWorkflow: openWorkspaceSetting(backend, APPROVAL_WORKFLOW),
  fourEyes: openWorkspaceSetting(backend, APPROVAL_FOUR_EYES),
});
