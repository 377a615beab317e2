/**
 * Settlement: the workspace's switch for the daily cut-off (control API and the overview's form).
 * The cut-off itself (completed → settled at the first Istanbul midnight after completion) is a
 * status change of the payments ledger, which reads this switch.
 */
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { registerSettingControl, registerSettingToggle, type WorkspaceSetting } from "../workspaces/index.js";

import type { SettlementStores } from "./open-settlement-stores.js";

export { openSettlementStores, type SettlementStores } from "./open-settlement-stores.js";

export const settlementDeclaration: FeatureDeclaration<undefined, SettlementStores> = {
  name: "settlement",
  needs: [],
  build: ({ stores }) => ({ provides: undefined, feature: settlementFeature(stores.autoSettlement) }),
};

export function settlementFeature(autoSettlement: WorkspaceSetting<boolean>): SandboxFeature {
  return {
    name: "settlement",
    controlRoutes: (control, ctx) =>
      registerSettingControl(control, ctx, {
        path: "settlement",
        setting: autoSettlement,
        what: "The settlement setting",
      }),
    dashboardPages: (dashboard, ctx) =>
      registerSettingToggle(dashboard, ctx, { path: "settlement", setting: autoSettlement, done: "settlement" }),
    resetWorkspace: (apiKey) => autoSettlement.clear(apiKey),
    reset: () => autoSettlement.clear(),
  };
}
