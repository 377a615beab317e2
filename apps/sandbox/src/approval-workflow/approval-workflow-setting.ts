import type { SettingColumn } from "../infrastructure/workspace-settings/workspace-setting.js";

/** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
export const APPROVAL_WORKFLOW: SettingColumn<boolean> = { column: "approval_workflow", fallback: false };

/**
 * The four-eyes rule (off in a fresh workspace): a payment waiting for approval can be approved only
 * with another API key than the one that submitted it.
 */
export const APPROVAL_FOUR_EYES: SettingColumn<boolean> = { column: "approval_four_eyes", fallback: false };
