/**
 * Faults on demand: declared per workspace (or for the gateway) through the control API or the
 * Faults page, striking the named operations of either API (errors, delays, resets, bad bodies) with
 * counts; the hooks that strike live in @payspec/server-kit.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { DeclaredFaults } from "./declared-faults.js";
import { registerFaultControls } from "./fault-controls.js";
import { faultsPages } from "./faults-pages.js";

export function faultsFeature(faults: DeclaredFaults): SandboxFeature {
  return {
    name: "faults",
    controlRoutes: (control, ctx) => registerFaultControls(control, faults, ctx),
    dashboardPages: faultsPages(faults),
    reset: async () => faults.clearAll(),
  };
}
export { DeclaredFaults } from "./declared-faults.js";
export type { SandboxFaultHelpers } from "./fault-helpers.js";
export { faultHelpers } from "./fault-helpers.js";
export { faultBeforeHandling } from "./fault-strikes.js";
