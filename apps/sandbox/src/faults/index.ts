/**
 * Faults on demand: declared per workspace (or for the gateway) through the control API or the
 * Faults page, striking the named operations of either API (errors, delays, resets, bad bodies) with
 * counts; the hooks that strike live in @payspec/server-kit.
 */
import { registerFaultHooks } from "@payspec/server-kit";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { requestLogDeclaration } from "../request-log/index.js";
import { DeclaredFaults } from "./declared-faults.js";
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
/**
 * Faults exist only with the control API, through which tests declare them; their hooks strike both
 * APIs' requests, and the request log records each as handled, with its fault's name, in the fault
 * hooks' own onSend hook (every request runs one hook on its way out, not two).
 */
export const faultsDeclaration: FeatureDeclaration<DeclaredFaults | undefined> = {
  name: "faults",
  needs: [requestLogDeclaration],
  build: ({ config, use }) => {
    if (!config.control) return { provides: undefined };
    const faults = new DeclaredFaults();
    const log = use(requestLogDeclaration);
    return {
      provides: faults,
      feature: {
        ...faultsFeature(faults),
        apiHooks: (app) => registerFaultHooks(app, log ? { beforeStrike: log.recorder(app) } : {}),
      },
    };
  },
};

export type { SandboxFaultHelpers } from "./fault-helpers.js";
export { faultHelpers } from "./fault-helpers.js";
export { faultBeforeHandling } from "./fault-strikes.js";
export { DeclaredFaults };
