import type { SettingDefinition } from "../workspaces/index.js";

/** Who receives the workspace's reports by e-mail (queued exports, schedules without their own list); empty until set. */
export const REPORT_RECIPIENTS: SettingDefinition<readonly string[]> = { name: "report_recipients", fallback: [] };
