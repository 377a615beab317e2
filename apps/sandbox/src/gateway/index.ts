/**
 * The card payment gateway: Basic login to a bearer token, card payments with strict validation
 * (full card numbers and CVCs never kept), lookup by reference, the daily .xlsx report, its store and
 * the Gateway page.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type GatewayPageDeps, gatewayPage } from "./gateway-pages.js";

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
