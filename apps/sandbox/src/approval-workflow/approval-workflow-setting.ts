import type { SettingColumn } from "../infrastructure/workspace-settings/workspace-setting.js";

/** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
export const APPROVAL_WORKFLOW: SettingColumn<boolean> = { column: "approval_workflow", fallback: false };
