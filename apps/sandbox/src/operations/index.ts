/**
 * Operations: what a team running the sandbox as a service reads — `/healthz`, `/readyz` and
 * `/metrics` (the metrics themselves are counted where things happen: infrastructure/metrics) — and
 * the control API's reset of a workspace or of the gateway, which every feature takes part in.
 */
import { clockDeclaration } from "../clock/index.js";
import type { SessionStore } from "../dashboard-sessions/index.js";
import { faultsDeclaration } from "../faults/index.js";
import type { GatewayStore } from "../gateway/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import { registerHealthRoutes } from "./health-routes.js";
import { registerResetControl } from "./reset-control.js";

export interface OperationsStores {
  readonly gateway: GatewayStore;
  readonly sessions: SessionStore;
  /** Why the stores cannot serve now, or undefined. */
  notReady(): Promise<string | undefined>;
}

export const operationsDeclaration: FeatureDeclaration<undefined, OperationsStores> = {
  name: "operations",
  needs: [clockDeclaration, faultsDeclaration],
  build: ({ stores, metrics, features, use }) => {
    const clocks = use(clockDeclaration);
    return {
      provides: undefined,
      feature: {
        name: "operations",
        apiRoutes: (app) =>
          registerHealthRoutes(app, {
            metrics,
            storesNotReady: () => stores.notReady(),
            loops: () => features().flatMap((feature) => feature.backgroundLoops?.() ?? []),
          }),
        controlRoutes: (control, ctx) =>
          registerResetControl(
            control,
            {
              clocks,
              faults: use(faultsDeclaration),
              resetWorkspace: async (apiKey) => {
                for (const feature of features()) await feature.resetWorkspace?.(apiKey);
              },
              resetGateway: async () => {
                await stores.gateway.clearPayments();
                await stores.sessions.deleteFor({ kind: "gateway" });
              },
            },
            ctx,
          ),
      },
    };
  },
};

export { type HealthSources, registerHealthRoutes } from "./health-routes.js";
