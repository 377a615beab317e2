import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import { createApiServer, registerFaultHooks, registerRequestLog, StartupProblem } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { ApiKeys } from "./api-keys/api-keys.js";
import { SandboxClocks, workspaceScope } from "./clock.js";
import { configFromEnv, type SandboxConfig, VERIFY_API_KEY } from "./config.js";
import { registerControlApi } from "./control/control-api.js";
import { ApiRequestLog } from "./dashboard/api-request-log.js";
import { registerDashboard } from "./dashboard/dashboard.js";
import { ExportQueue } from "./exports/export-queue.js";
import { DeclaredFaults } from "./faults/declared-faults.js";
import { faultHelpers, type SandboxFaultHelpers } from "./faults/fault-helpers.js";

import { registerGatewayApi } from "./gateway/gateway-api.js";
import { Mailer } from "./mail/mailer.js";
import { registerPaymentsApi } from "./payments/payments-api.js";
import { addSamplePayments } from "./payments/sample-payments.js";
import { seedWorkspace, workspaceTag } from "./payments/seed.js";
import { SandboxSecret } from "./sandbox-secret.js";
import { ReportSchedules } from "./scheduled-reports/report-schedules.js";
import { memoryStores, postgresStores, type SandboxStores, type WorkspaceSeed } from "./store/index.js";

export interface SandboxOptions extends Partial<SandboxConfig> {
  /** Where the state lives; default: in memory, or PostgreSQL when `databaseUrl` is set. Closed with the sandbox only when opened by it. */
  readonly stores?: SandboxStores;
  /** Where request log lines go when logging is on. Default: stdout. */
  readonly log?: (line: string) => void;
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
  /** Stops serving and releases the store's connections. */
  close(): Promise<void>;
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
  if (!config.databaseUrl) return memoryStores();
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

/** Both APIs and the control API on one Fastify instance, not yet listening. */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { stores: given, log, ...overrides } = options;
  const config: SandboxConfig = { ...configFromEnv(), ...overrides };
  const secret = new SandboxSecret(config.secret);
  const stores = given ?? (await openStores(config, secret));
  const { payments, gateway } = stores;
  const clocks = new SandboxClocks(stores.clocks);
  const apiKeys = new ApiKeys(stores.apiKeys, secret, clocks, config.apiKeys);
  const addSamples = async (seed: WorkspaceSeed) => {
    if (!config.samplePayments || seed.workspace === VERIFY_API_KEY) return;
    const now = await clocks.now(workspaceScope(seed.workspace));
    await addSamplePayments(payments, seed, now, config.completeAfterSeconds * 1000);
  };
  // The dashboard's request log records the payments API's traffic (so it hooks in before the routes);
  // a workspace reset clears it with the rest of the workspace.
  const requestLog = config.control ? new ApiRequestLog() : undefined;
  // Faults on demand exist only with the control API, through which tests declare them.
  const faults = config.control ? new DeclaredFaults() : undefined;
  const mailer = new Mailer(stores.outbox, {
    from: config.mailFrom,
    retryMs: config.smtpRetryMs,
    ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
  });
  const byTag = new Map(config.apiKeys.map((key) => [workspaceTag(key), key]));
  let app: FastifyInstance | undefined;
  // Links in e-mail: the public URL, or the address the sandbox listens on (known once it listens).
  const linkBase = () => config.publicUrl ?? listeningUrl(app, config);
  const exports = new ExportQueue({
    jobs: stores.exportJobs,
    payments,
    secret,
    clocks,
    mailer,
    workspaceOf: (tag) => byTag.get(tag),
    baseUrl: linkBase,
    linkHours: config.exportLinkHours,
    leaseMs: config.jobLeaseSeconds * 1000,
  });
  const schedules = new ReportSchedules({
    store: stores.schedules,
    payments,
    clocks,
    secret,
    mailer,
    workspaceKeys: config.apiKeys,
    completeAfterMs: config.completeAfterSeconds * 1000,
    attachRows: config.exportQueueRows,
    linkHours: config.exportLinkHours,
    baseUrl: linkBase,
  });
  const resetWorkspace = async (apiKey: string) => {
    const seed = seedWorkspace(apiKey);
    await payments.resetWorkspace(seed);
    // Keys made in the workspace go with it: a reset is a new workspace (its configured key stays).
    await apiKeys.forget(apiKey);
    requestLog?.clear(apiKey);
    await stores.outbox.deleteFor(workspaceTag(apiKey));
    await stores.exportJobs.deleteFor(workspaceTag(apiKey));
    await stores.schedules.deleteFor(workspaceTag(apiKey));
    // Everyone signed in to the workspace's dashboard starts again: a reset is a new workspace.
    await stores.sessions.deleteFor({ kind: "workspace", tag: workspaceTag(apiKey) });
    await addSamples(seed);
  };
  const resetGateway = async () => {
    await gateway.clearPayments();
    await stores.sessions.deleteFor({ kind: "gateway" });
  };
  const reset = async () => {
    faults?.clearAll();
    await clocks.reset();
    const seeds = config.apiKeys.map(seedWorkspace);
    await payments.reset(seeds);
    await apiKeys.forget();
    await stores.outbox.deleteFor();
    await stores.exportJobs.deleteFor();
    await stores.schedules.deleteFor();
    for (const seed of seeds) {
      requestLog?.clear(seed.workspace);
      await addSamples(seed);
    }
    await gateway.reset();
  };
  // A shared store keeps what other instances (or this one, before a restart) put there: only the
  // workspaces it does not have yet are seeded.
  const seeds = config.apiKeys.map(seedWorkspace);
  try {
    const created = new Set(await payments.ensureWorkspaces(seeds));
    for (const seed of seeds) if (created.has(seed.workspace)) await addSamples(seed);
  } catch (error) {
    if (!given) await stores.close();
    throw error;
  }

  // Text no database can keep (NUL, lone surrogates) in a path or query is refused before any handler,
  // on every store alike, in the called API's error shape (the dashboard shows its own error page).
  // Bodies are judged by each operation, so that one bad batch entry fails only itself.
  app = createApiServer({
    operations: [...Object.keys(paymentsRoutes), ...Object.keys(gatewayRoutes)],
    refuseUnstorableText: true,
  });
  if (config.logRequests) registerRequestLog(app, log ?? ((line) => process.stdout.write(`${line}\n`)));
  // The request log records each answer as handled, with its fault's name, in the fault hooks' own
  // onSend hook: every request runs one hook on its way out, not two.
  if (faults) registerFaultHooks(app, requestLog ? { beforeStrike: requestLog.recorder(app) } : {});
  else requestLog?.register(app);
  registerPaymentsApi(app, { config, store: payments, clocks, secret, apiKeys, faults });
  registerGatewayApi(app, { config, store: gateway, clocks, secret, faults });
  if (requestLog && faults) {
    registerControlApi(app, {
      faults,
      apiKeys,
      payments,
      gateway,
      clocks,
      resetWorkspace,
      resetGateway,
      completeAfterMs: config.completeAfterSeconds * 1000,
      mailer,
      exports,
      schedules,
    });
    await registerDashboard(app, {
      mailer,
      exports,
      schedules,
      exportQueueRows: config.exportQueueRows,
      apiKeys,
      workspaceKeys: config.apiKeys,
      payments,
      gateway,
      requestLog,
      clocks,
      secret,
      completeAfterMs: config.completeAfterSeconds * 1000,
      sessions: stores.sessions,
      sessionTimeouts: { idleSeconds: config.dashboardIdleSeconds, maxSeconds: config.dashboardMaxSeconds },
      gatewayCredentials: { key: config.gatewayKey, secret: config.gatewaySecret },
    });
  }
  // Mail and queued exports run in the background; both stop before the store closes.
  mailer.start();
  exports.start();
  schedules.start();
  app.addHook("onClose", async () => {
    await schedules.stop();
    await exports.stop();
    await mailer.stop();
  });
  if (!given) app.addHook("onClose", () => stores.close());
  await app.ready();
  return {
    app,
    config,
    clocks,
    stores,
    faults: faultHelpers(faults, config.apiKeys[0] ?? ""),
    reset,
    close: () => app.close(),
  };
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
