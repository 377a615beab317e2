/**
 * The Settings page: the workspace's sandbox clock (advance, back to real time) and the switches other
 * features own (the approval workflow and its four-eyes rule, automatic settlement), shown together
 * where an operator looks for them. It keeps nothing of its own: every switch is its feature's setting.
 */
import type { ApprovalStores } from "../approval-workflow/index.js";
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { SettlementStores } from "../settlement/index.js";
import { type SettingsPageDeps, settingsPage } from "./settings-pages.js";

export function settingsFeature(deps: SettingsPageDeps): SandboxFeature {
  return { name: "settings", dashboardPages: settingsPage(deps) };
}

export const settingsDeclaration: FeatureDeclaration<undefined, ApprovalStores & SettlementStores> = {
  name: "settings",
  needs: [clockDeclaration],
  build: ({ stores, use }) => ({
    provides: undefined,
    feature: settingsFeature({
      clocks: use(clockDeclaration),
      approvalWorkflow: stores.approvalWorkflow,
      autoSettlement: stores.autoSettlement,
      fourEyes: stores.fourEyes,
    }),
  }),
};
