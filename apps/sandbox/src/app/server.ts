import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import { createApiServer, StartupProblem } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { clockDeclaration, type SandboxClocks } from "../clock/index.js";
import { faultHelpers, faultsDeclaration, type SandboxFaultHelpers } from "../faults/index.js";
import { configFromEnv, type SandboxConfig } from "../infrastructure/config/config.js";
import { type ComposedFeatures, composeFeatures } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { SandboxMetrics } from "../infrastructure/metrics/sandbox-metrics.js";
import { databaseAwayFailure } from "../infrastructure/postgres/database-unavailable.js";
import { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { memoryStores, postgresStores } from "./open-stores.js";
import { SANDBOX_FEATURES } from "./sandbox-features.js";
import type { SandboxStores } from "./sandbox-stores.js";
import { registerShells } from "./shells.js";

export interface SandboxOptions extends Partial<SandboxConfig> {
  /** Where the state lives; default: in memory, or PostgreSQL when `databaseUrl` is set. Closed with the sandbox only when opened by it. */
  readonly stores?: SandboxStores;
  /** Where request log lines go when logging is on. Default: stdout. */
  readonly log?: (line: string) => void;
  /** Add the process's own metrics (CPU, memory, event loop, GC) to `/metrics`: the CLI's one instance does. */
  readonly processMetrics?: boolean;
}

export interface Sandbox {
  readonly app: FastifyInstance;
  readonly config: SandboxConfig;
  /** Each workspace's clock and the gateway's (`await clocks.now(workspaceScope(key))`, `clocks.now(GATEWAY_SCOPE)`). */
  readonly clocks: SandboxClocks;
  readonly stores: SandboxStores;
  /** Faults on demand for tests: `sandbox.faults.next("createPayment", "reset-after-commit")`. */
  readonly faults: SandboxFaultHelpers;
  /** Back to the seeded state: accounts, no payments, no tokens, real time (every instance sharing the store sees it). */
  reset(): Promise<void>;
  /**
   * Stops serving and releases the store's connections. Requests in flight are answered first, for
   * at most `graceMs` (5 s by default; the CLI's SIGTERM allows more): then their connections close.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/** The address the sandbox listens on, for links it sends out when no public URL is configured. */
function listeningUrl(app: FastifyInstance | undefined, config: SandboxConfig): string {
  const address = app?.server.address();
  if (address && typeof address === "object") {
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }
  return `http://${config.host}:${config.port}`;
}

async function openStores(config: SandboxConfig, secret: SandboxSecret): Promise<SandboxStores> {
  if (!config.databaseUrl) return memoryStores({ maxPayments: config.memoryMaxPayments });
  if (!config.secret) {
    throw new StartupProblem(
      "PAYSPEC_DATABASE_URL needs PAYSPEC_SANDBOX_SECRET as well: instances sharing a database (or one instance across restarts) must share the secret that signs cursors and keys card-number hashes. It is never stored in the database; set the same long random value on every instance.",
    );
  }
  return postgresStores(config.databaseUrl, {
    storedWorkspaceId: (key) => secret.storedWorkspaceId(key),
    ...(config.databasePoolSize === undefined ? {} : { poolSize: config.databasePoolSize }),
  });
}

/** What `/metrics` reads from the features, once they are built. */
function metricsOf(features: () => readonly SandboxFeature[], stores: SandboxStores, processMetrics?: boolean) {
  return new SandboxMetrics({
    loops: () => features().flatMap((feature) => feature.backgroundLoops?.() ?? []),
    dueBacklog: async () =>
      Object.assign({}, ...(await Promise.all(features().map((feature) => feature.dueBacklog?.() ?? {})))),
    ...(stores.poolStats ? { pool: stores.poolStats } : {}),
    ...(processMetrics === undefined ? {} : { processMetrics }),
  });
}

/**
 * Both APIs and the control API on one Fastify instance, not yet listening: the features the app
 * lists (app/sandbox-features.ts), each built after those it needs, then their hooks and routes.
 */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { stores: given, log, processMetrics, ...overrides } = options;
  const config: SandboxConfig = { ...configFromEnv(), ...overrides };
  const secret = new SandboxSecret(config.secret);
  const stores = given ?? (await openStores(config, secret));
  let composed: ComposedFeatures | undefined;
  let app: FastifyInstance | undefined;
  const metrics = metricsOf(() => composed?.features ?? [], stores, processMetrics);
  const linkBase = () => config.publicUrl ?? listeningUrl(app, config);
  try {
    composed = await composeFeatures(SANDBOX_FEATURES, { config, stores, secret, metrics, linkBase });
  } catch (error) {
    if (!given) await stores.close();
    throw error;
  }
  const { features } = composed;
  // Text no database can keep (NUL, lone surrogates) in a path or query is refused before any handler,
  // on every store alike, in the called API's error shape (the dashboard shows its own error page).
  app = createApiServer({
    operations: [...Object.keys(paymentsRoutes), ...Object.keys(gatewayRoutes)],
    refuseUnstorableText: true,
    // While the database is away every request answers 503 with Retry-After, never a 500.
    failureOf: databaseAwayFailure,
    ...(config.logRequests ? { requestLog: log ?? ((line) => process.stdout.write(`${line}\n`)) } : {}),
  });
  metrics.observeRequests(app);
  for (const feature of features) feature.apiHooks?.(app);
  for (const feature of features) feature.apiRoutes?.(app);
  if (config.control) await registerShells(app, { config, secret, stores, composed });
  for (const feature of features) feature.start?.();
  await app.ready();
  return {
    app,
    config,
    clocks: composed.use(clockDeclaration),
    stores,
    faults: faultHelpers(composed.use(faultsDeclaration), config.apiKeys[0] ?? ""),
    reset: async () => {
      for (const feature of features) await feature.reset?.();
    },
    close: (options) =>
      closeSandbox(app as FastifyInstance, features, given ? undefined : stores, options?.graceMs ?? CLOSE_GRACE_MS),
  };
}

/** How long an embedded sandbox's close waits for the requests in flight before it closes their connections. */
const CLOSE_GRACE_MS = 5_000;

/**
 * In this order: no new connection and every request in flight answered (Fastify's close; its own
 * onClose hooks run before that wait, so nothing that requests use may stop in one); then the
 * background loops' current runs (last started first); then the store, when the sandbox opened it.
 */
async function closeSandbox(
  app: FastifyInstance,
  features: readonly SandboxFeature[],
  owned: SandboxStores | undefined,
  graceMs: number,
) {
  // A request that will never be answered in full (a stalled fault's, whose client gave up) keeps its
  // connection counted as active: after the grace every connection left is closed, so the close ends.
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  force.unref();
  await app.close();
  clearTimeout(force);
  for (const feature of [...features].reverse()) await feature.stop?.();
  await owned?.close();
}

export interface RunningSandbox extends Sandbox {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
}

/** Starts the sandbox on 127.0.0.1. `port: 0` (the default here) picks a free port, for tests. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await buildSandbox({ port: 0, host: "127.0.0.1", ...options });
  const address = await sandbox.app.listen({ port: sandbox.config.port, host: sandbox.config.host });
  return { ...sandbox, url: address.replace("localhost", "127.0.0.1") };
}
