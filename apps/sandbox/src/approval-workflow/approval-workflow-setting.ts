import type { SettingDefinition } from "../workspaces/index.js";

/** Whether a dashboard submit waits for an approver (off in a fresh workspace). */
export const APPROVAL_WORKFLOW: SettingDefinition<boolean> = { name: "approval_workflow", fallback: false };

/**
 * The four-eyes rule (off in a fresh workspace): a payment waiting for approval can be approved only
 * with another API key than the one that submitted it.
 */
export const APPROVAL_FOUR_EYES: SettingDefinition<boolean> = { name: "approval_four_eyes", fallback: false };
