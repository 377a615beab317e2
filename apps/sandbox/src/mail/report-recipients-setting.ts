import type { SettingColumn } from "../infrastructure/workspace-settings/workspace-setting.js";

/** Who receives the workspace's reports by e-mail (queued exports, schedules without their own list); empty until set. */
export const REPORT_RECIPIENTS: SettingColumn<readonly string[]> = { column: "report_recipients", fallback: [] };
