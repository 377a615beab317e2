/**
 * The card payment gateway: Basic login to a bearer token, card payments with strict validation
 * (full card numbers and CVCs never kept), lookup by reference, the daily .xlsx report, its store and
 * the Gateway page.
 */
import { clockDeclaration } from "../clock/index.js";
import { faultsDeclaration } from "../faults/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { registerGatewayApi } from "./gateway-api.js";
import { type GatewayPageDeps, gatewayPage } from "./gateway-pages.js";
import type { GatewayStores } from "./open-gateway-stores.js";

export function gatewayFeature(deps: GatewayPageDeps): SandboxFeature {
  return {
    name: "gateway",
    dashboardPages: gatewayPage(deps),
    reset: () => deps.gateway.reset(),
  };
}
export { isLiveToken, registerGatewayApi } from "./gateway-api.js";
export type { GatewayStore } from "./gateway-store.js";
export { type GatewayStores, openGatewayStores } from "./open-gateway-stores.js";

/** The card gateway's store and page; its API comes with the gateway API feature. */
export const gatewayDeclaration: FeatureDeclaration<undefined, GatewayStores> = {
  name: "gateway",
  needs: [clockDeclaration],
  build: ({ stores, use }) => ({
    provides: undefined,
    feature: gatewayFeature({ gateway: stores.gateway, clocks: use(clockDeclaration) }),
  }),
};

/** The card gateway's API (`/auth/login`, `/api/v1`), struck by the gateway's declared faults. */
export const gatewayApiDeclaration: FeatureDeclaration<undefined, GatewayStores> = {
  name: "gateway-api",
  needs: [clockDeclaration, faultsDeclaration],
  build: ({ config, stores, secret, use }) => ({
    provides: undefined,
    feature: {
      name: "gateway-api",
      apiRoutes: (app) =>
        registerGatewayApi(app, {
          config,
          store: stores.gateway,
          clocks: use(clockDeclaration),
          secret,
          faults: use(faultsDeclaration),
        }),
    },
  }),
};
