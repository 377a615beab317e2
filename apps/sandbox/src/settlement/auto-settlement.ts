import type { SettingDefinition } from "../workspaces/index.js";

/**
 * Whether completed payments settle by themselves at the daily cut-off (on in a fresh workspace).
 * The payments ledger settles them (a status change moves money and history together, under the
 * workspace's lock); it reads this switch where it is kept: the memory setting, or its row of
 * `workspace_settings` (AUTO_SETTLEMENT_OFF in the payments ledger's statements).
 */
export const AUTO_SETTLEMENT: SettingDefinition<boolean> = { name: "auto_settlement", fallback: true };
