import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { GatewayStore } from "./gateway-store.js";
import { MemoryGatewayStore } from "./memory-gateway-store.js";
import { PostgresGatewayStore } from "./postgres-gateway-store.js";

export interface GatewayStores {
  readonly gateway: GatewayStore;
}

export const openGatewayStores: OpenStores<GatewayStores> = (backend) => ({
  gateway: backend.kind === "memory" ? new MemoryGatewayStore() : new PostgresGatewayStore(backend.pool),
});
