import {
  BODY_LIMIT_BYTES,
  registerErrorHandling,
  registerJsonBodyParser,
  registerRequestLog,
} from "@payspec/server-kit";
import Fastify, { type FastifyInstance } from "fastify";
import { SandboxClock } from "./clock.js";
import { configFromEnv, type SandboxConfig } from "./config.js";
import { registerControlApi } from "./control/control-api.js";
import { registerGatewayApi } from "./gateway/gateway-api.js";
import { registerPaymentsApi } from "./payments/payments-api.js";
import { seedWorkspace } from "./payments/seed.js";
import { type GatewayStore, MemoryGatewayStore, MemoryPaymentsStore, type PaymentsStore } from "./store/index.js";

export interface SandboxOptions extends Partial<SandboxConfig> {
  readonly paymentsStore?: PaymentsStore;
  readonly gatewayStore?: GatewayStore;
  /** Where request log lines go when logging is on. Default: stdout. */
  readonly log?: (line: string) => void;
}

export interface Sandbox {
  readonly app: FastifyInstance;
  readonly config: SandboxConfig;
  readonly clock: SandboxClock;
  /** Back to the seeded state: accounts, no payments, no tokens, real time. */
  reset(): Promise<void>;
}

/** Both APIs and the control API on one Fastify instance, not yet listening. */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { paymentsStore, gatewayStore, log, ...overrides } = options;
  const config: SandboxConfig = { ...configFromEnv(), ...overrides };
  const payments = paymentsStore ?? new MemoryPaymentsStore();
  const gateway = gatewayStore ?? new MemoryGatewayStore();
  const clock = new SandboxClock();
  const reset = async () => {
    clock.reset();
    await payments.reset(config.apiKeys.map(seedWorkspace));
    await gateway.reset();
  };
  await reset();

  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, return503OnClosing: false });
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  if (config.logRequests) registerRequestLog(app, log ?? ((line) => process.stdout.write(`${line}\n`)));
  registerPaymentsApi(app, { config, store: payments, clock });
  registerGatewayApi(app, { config, store: gateway, clock });
  if (config.control) registerControlApi(app, { store: payments, clock, reset });
  await app.ready();
  return { app, config, clock, reset };
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
