import type { SettingColumn } from "../infrastructure/workspace-settings/workspace-setting.js";

/**
 * Whether completed payments settle by themselves at the daily cut-off (on in a fresh workspace).
 * The payments ledger settles them (a status change moves money and history together, under the
 * workspace's lock); it reads this switch where it is kept: the memory setting, or this column.
 */
export const AUTO_SETTLEMENT: SettingColumn<boolean> = { column: "auto_settlement", fallback: true };
