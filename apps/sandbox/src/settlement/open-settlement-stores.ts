import type { OpenStores } from "../infrastructure/features/store-backend.js";
import { openWorkspaceSetting, type WorkspaceSetting } from "../workspaces/index.js";
import { AUTO_SETTLEMENT } from "./auto-settlement.js";

export interface SettlementStores {
  /** Whether completed payments settle by themselves at the daily cut-off (on in a fresh workspace). */
  readonly autoSettlement: WorkspaceSetting<boolean>;
}

export const openSettlementStores: OpenStores<SettlementStores> = (backend) => ({
  autoSettlement: openWorkspaceSetting(backend, AUTO_SETTLEMENT),
});
