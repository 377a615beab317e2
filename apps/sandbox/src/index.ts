export { FAULT_NAMES, FAULTS, type FaultName } from "@payspec/server-kit";
export { GATEWAY_SCOPE, MAX_CLOCK_ADVANCE_SECONDS, SandboxClocks, workspaceScope } from "./clock.js";
export {
  DEFAULT_PORT,
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type SandboxConfig,
  VERIFY_API_KEY,
} from "./config.js";
export type { FaultView } from "./faults/declared-faults.js";
export type { FaultSettings, FaultTarget, SandboxFaultHelpers } from "./faults/fault-helpers.js";
export { TEST_CARDS } from "./gateway/card-catalogue.js";
export { istanbulDate, istanbulMidnightAfter } from "./istanbul-time.js";
export { seedWorkspace, workspaceTag } from "./payments/seed.js";
export { buildSandbox, type RunningSandbox, type Sandbox, type SandboxOptions, startSandbox } from "./server.js";
export {
  type ClockStore,
  type GatewayStore,
  memoryStores,
  type PaymentsStore,
  postgresStores,
  type SandboxStores,
} from "./store/index.js";
