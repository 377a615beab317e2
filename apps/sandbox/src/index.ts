export { FAULT_NAMES, FAULTS, type FaultName } from "@payspec/server-kit";
export { SHUTDOWN_BOUND_MS } from "./app/graceful-shutdown.js";
export { memoryStores, postgresStores } from "./app/open-stores.js";
export type { SandboxStores } from "./app/sandbox-stores.js";
export { buildSandbox, type RunningSandbox, type Sandbox, type SandboxOptions, startSandbox } from "./app/server.js";
export {
  GATEWAY_SCOPE,
  MAX_CLOCK_ADVANCE_SECONDS,
  SandboxClocks,
  workspaceScope,
} from "./clock/clock.js";
export type { ClockStore } from "./clock/clock-store.js";
export type { FaultView } from "./faults/declared-faults.js";
export type { FaultSettings, FaultTarget, SandboxFaultHelpers } from "./faults/fault-helpers.js";
export { TEST_CARDS } from "./gateway/card-catalogue.js";
export type { GatewayStore } from "./gateway/gateway-store.js";
export {
  DEFAULT_PORT,
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type SandboxConfig,
  VERIFY_API_KEY,
} from "./infrastructure/config/config.js";
export { istanbulDate, istanbulMidnightAfter } from "./infrastructure/time/istanbul-time.js";
export { seedWorkspace } from "./payments/creation/seed.js";
export type { PaymentsStore } from "./payments/store/payments-store.js";
export { type CopiedColumns, copyFirstPayment } from "./payments/store/postgres/payment-copies.js";
export { workspaceTag } from "./workspaces/index.js";
