export { MemoryGatewayStore } from "./memory-gateway-store.js";
export { MemoryPaymentsStore } from "./memory-payments-store.js";
export type * from "./types.js";
