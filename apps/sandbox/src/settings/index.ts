/**
 * The Settings page: the workspace's sandbox clock (advance, back to real time) and the switches other
 * features own (the approval workflow and its four-eyes rule, automatic settlement), shown together
 * where an operator looks for them. It keeps nothing of its own: every switch is its feature's setting.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type SettingsPageDeps, settingsPage } from "./settings-pages.js";

export function settingsFeature(deps: SettingsPageDeps): SandboxFeature {
  return { name: "settings", dashboardPages: settingsPage(deps) };
}
