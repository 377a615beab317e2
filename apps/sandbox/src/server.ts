import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import { createApiServer, registerRequestLog } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { SandboxClocks, workspaceScope } from "./clock.js";
import { configFromEnv, type SandboxConfig } from "./config.js";
import { registerControlApi } from "./control/control-api.js";
import { registerGatewayApi } from "./gateway/gateway-api.js";
import { registerPaymentsApi } from "./payments/payments-api.js";
import { addSamplePayments } from "./payments/sample-payments.js";
import { seedWorkspace } from "./payments/seed.js";
import { SandboxSecret } from "./sandbox-secret.js";
import {
  type GatewayStore,
  MemoryGatewayStore,
  MemoryPaymentsStore,
  type PaymentsStore,
  type WorkspaceSeed,
} from "./store/index.js";

export interface SandboxOptions extends Partial<SandboxConfig> {
  readonly paymentsStore?: PaymentsStore;
  readonly gatewayStore?: GatewayStore;
  /** Where request log lines go when logging is on. Default: stdout. */
  readonly log?: (line: string) => void;
}

export interface Sandbox {
  readonly app: FastifyInstance;
  readonly config: SandboxConfig;
  /** Each workspace's clock and the gateway's (`clocks.now(workspaceScope(key))`, `clocks.now(GATEWAY_SCOPE)`). */
  readonly clocks: SandboxClocks;
  /** Back to the seeded state: accounts, no payments, no tokens, real time. */
  reset(): Promise<void>;
}

/** Both APIs and the control API on one Fastify instance, not yet listening. */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { paymentsStore, gatewayStore, log, ...overrides } = options;
  const config: SandboxConfig = { ...configFromEnv(), ...overrides };
  const payments = paymentsStore ?? new MemoryPaymentsStore();
  const gateway = gatewayStore ?? new MemoryGatewayStore();
  const clocks = new SandboxClocks();
  const secret = new SandboxSecret(config.secret);
  const addSamples = async (seed: WorkspaceSeed) => {
    if (!config.samplePayments) return;
    const now = clocks.now(workspaceScope(seed.workspace));
    await addSamplePayments(payments, seed, now, config.completeAfterSeconds * 1000);
  };
  const resetWorkspace = async (apiKey: string) => {
    const seed = seedWorkspace(apiKey);
    await payments.resetWorkspace(seed);
    await addSamples(seed);
  };
  const reset = async () => {
    clocks.reset();
    const seeds = config.apiKeys.map(seedWorkspace);
    await payments.reset(seeds);
    for (const seed of seeds) await addSamples(seed);
    await gateway.reset();
  };
  await reset();

  const app = createApiServer({ operations: [...Object.keys(paymentsRoutes), ...Object.keys(gatewayRoutes)] });
  if (config.logRequests) registerRequestLog(app, log ?? ((line) => process.stdout.write(`${line}\n`)));
  registerPaymentsApi(app, { config, store: payments, clocks, secret });
  registerGatewayApi(app, { config, store: gateway, clocks, secret });
  if (config.control) registerControlApi(app, { apiKeys: config.apiKeys, payments, gateway, clocks, resetWorkspace });
  await app.ready();
  return { app, config, clocks, reset };
}

export interface RunningSandbox extends Sandbox {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the sandbox on 127.0.0.1. `port: 0` (the default here) picks a free port, for tests. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await buildSandbox({ port: 0, host: "127.0.0.1", ...options });
  const address = await sandbox.app.listen({ port: sandbox.config.port, host: sandbox.config.host });
  return { ...sandbox, url: address.replace("localhost", "127.0.0.1"), close: () => sandbox.app.close() };
}
