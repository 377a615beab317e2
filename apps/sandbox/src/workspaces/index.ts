/**
 * Workspaces: the `workspaces` table every other feature's rows hang off, a workspace's public tag,
 * and the settings store (`workspace_settings`, a row per setting) through which approval-workflow,
 * mail, reconciliation and settlement keep their switches and lists: no feature adds a column to
 * another's table. Each feature defines its settings (name and default) and opens them here; a
 * feature's PostgreSQL store is keyed by stored ids (keyed hashes of the API keys) through one decorator.
 */
export { registerSettingControl } from "./setting-control.js";
export { registerSettingToggle } from "./setting-toggle.js";
export { keyedByStoredIds } from "./stored-workspace-keys.js";
export {
  MemoryWorkspaceSetting,
  openWorkspaceSetting,
  type SettingDefinition,
  type WorkspaceSetting,
} from "./workspace-setting.js";
export { workspaceTag } from "./workspace-tag.js";
