import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import { createApiServer, registerFaultHooks, StartupProblem } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { ApiKeys, apiKeysFeature, maskKey, UNKNOWN_KEY } from "../api-keys/index.js";
import { approvalsWaiting, approvalWorkflowFeature } from "../approval-workflow/index.js";
import { registerClockControls, SandboxClocks, workspaceScope } from "../clock/index.js";
import { dashboardSessionsFeature } from "../dashboard-sessions/index.js";
import { ExportQueue, exportsFeature } from "../exports/index.js";
import { DeclaredFaults, faultHelpers, faultsFeature, type SandboxFaultHelpers } from "../faults/index.js";
import { gatewayFeature, registerGatewayApi } from "../gateway/index.js";
import { configFromEnv, type SandboxConfig, VERIFY_API_KEY } from "../infrastructure/config/config.js";
import { registerControlApi } from "../infrastructure/control-api/control-api.js";
import { registerDashboard } from "../infrastructure/dashboard-shell/dashboard.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { SandboxMetrics } from "../infrastructure/metrics/sandbox-metrics.js";
import { databaseAwayFailure } from "../infrastructure/postgres/database-unavailable.js";
import { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { workspaceTag } from "../infrastructure/workspaces/workspace-tag.js";
import { Mailer, mailFeature } from "../mail/index.js";
import { registerHealthRoutes } from "../operations/index.js";
import { elapsedTime, paymentsFeature, REQUEST_CHUNKS, registerPaymentsApi } from "../payments/index.js";
import { reconciliationFeature } from "../reconciliation/index.js";
import { ApiRequestLog, requestLogFeature } from "../request-log/index.js";
import { ReportSchedules, scheduledReportsFeature } from "../scheduled-reports/index.js";
import { settingsFeature } from "../settings/index.js";
import { settlementFeature } from "../settlement/index.js";
import { controlAuthenticator, registerResetControl } from "./control-access.js";
import { memoryStores, postgresStores } from "./open-stores.js";
import type { SandboxStores } from "./sandbox-stores.js";

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

/** Both APIs and the control API on one Fastify instance, not yet listening. */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { stores: given, log, processMetrics, ...overrides } = options;
  const config: SandboxConfig = { ...configFromEnv(), ...overrides };
  const secret = new SandboxSecret(config.secret);
  const stores = given ?? (await openStores(config, secret));
  const { payments, gateway } = stores;
  const clocks = new SandboxClocks(stores.clocks);
  const apiKeys = new ApiKeys(stores.apiKeys, secret, clocks, config.apiKeys);
  const completeAfterMs = config.completeAfterSeconds * 1000;
  /** Who acts with a key, as histories record it: a keyed fingerprint (never the key) and the key masked. */
  const signerOf = (key: string) => `${secret.digest("actor", key).toString("hex").slice(0, 16)} ${maskKey(key)}`;
  const catchUp = elapsedTime(payments, completeAfterMs);
  // The dashboard's request log records the payments API's traffic (so it hooks in before the routes);
  // a workspace reset clears it with the rest of the workspace.
  const requestLog = config.control ? new ApiRequestLog() : undefined;
  // Faults on demand exist only with the control API, through which tests declare them.
  const faults = config.control ? new DeclaredFaults() : undefined;
  const mailer = new Mailer(stores.outbox, {
    language: stores.mailLanguage,
    from: config.mailFrom,
    retryMs: config.smtpRetryMs,
    ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
  });
  // Filled below; the metrics read the loops at each scrape.
  const features: SandboxFeature[] = [];
  const loops = () => features.flatMap((feature) => feature.backgroundLoops?.() ?? []);
  const metrics = new SandboxMetrics({
    loops,
    dueBacklog: async () =>
      Object.assign({}, ...(await Promise.all(features.map((feature) => feature.dueBacklog?.() ?? {})))),
    ...(stores.poolStats ? { pool: stores.poolStats } : {}),
    ...(processMetrics === undefined ? {} : { processMetrics }),
  });
  const byTag = new Map(config.apiKeys.map((key) => [workspaceTag(key), key]));
  let app: FastifyInstance | undefined;
  // Links in e-mail: the public URL, or the address the sandbox listens on (known once it listens).
  const linkBase = () => config.publicUrl ?? listeningUrl(app, config);
  const exports = new ExportQueue({
    jobs: stores.exportJobs,
    payments,
    reportRecipients: stores.reportRecipients,
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
    reportRecipients: stores.reportRecipients,
    clocks,
    secret,
    mailer,
    workspaceKeys: config.apiKeys,
    completeAfterMs,
    attachRows: config.exportQueueRows,
    linkHours: config.exportLinkHours,
    baseUrl: linkBase,
  });
  const paymentsPart = paymentsFeature({
    payments,
    clocks,
    approvalWorkflow: stores.approvalWorkflow,
    autoSettlement: stores.autoSettlement,
    workspaceKeys: config.apiKeys,
    samplesFor: (key) => config.samplePayments && key !== VERIFY_API_KEY,
    completeAfterMs,
  });
  const sessions = dashboardSessionsFeature({
    store: stores.sessions,
    secret,
    timeouts: { idleSeconds: config.dashboardIdleSeconds, maxSeconds: config.dashboardMaxSeconds },
    authenticate: async (key) => {
      const signedIn = await apiKeys.authenticate(key);
      return signedIn.ok
        ? { ok: true, tag: workspaceTag(signedIn.workspace), signer: signerOf(key) }
        : { ok: false, message: signedIn.message, unknown: signedIn.message === UNKNOWN_KEY };
    },
    gatewayCredentials: { key: config.gatewayKey, secret: config.gatewaySecret },
  });
  // The sandbox is this list: each feature brings its routes, pages, resets and background work.
  features.push(
    paymentsPart,
    approvalWorkflowFeature({ payments, approvalWorkflow: stores.approvalWorkflow, fourEyes: stores.fourEyes, clocks }),
    settlementFeature(stores.autoSettlement),
    apiKeysFeature(apiKeys),
    sessions,
    mailFeature({ mailer, reportRecipients: stores.reportRecipients }),
    exportsFeature({
      exports,
      jobs: stores.exportJobs,
      payments,
      reportRecipients: stores.reportRecipients,
      secret,
      clocks,
      workspaceKeys: config.apiKeys,
      exportQueueRows: config.exportQueueRows,
      metrics,
    }),
    scheduledReportsFeature(schedules, stores.schedules),
    reconciliationFeature({
      reconciliation: stores.reconciliation,
      statementMappings: stores.statementMappings,
      clocks,
      elapsedTime: catchUp,
    }),
    ...(requestLog ? [requestLogFeature(requestLog, config.apiKeys)] : []),
    ...(faults ? [faultsFeature(faults)] : []),
    gatewayFeature({ gateway, clocks }),
    // Last: its page shows the switches of the features above.
    settingsFeature({
      clocks,
      approvalWorkflow: stores.approvalWorkflow,
      autoSettlement: stores.autoSettlement,
      fourEyes: stores.fourEyes,
    }),
  );
  const resetWorkspace = async (apiKey: string) => {
    for (const feature of features) await feature.resetWorkspace?.(apiKey);
  };
  const resetGateway = async () => {
    await gateway.clearPayments();
    await stores.sessions.deleteFor({ kind: "gateway" });
  };
  const reset = async () => {
    await clocks.reset();
    for (const feature of features) await feature.reset?.();
  };
  // A shared store keeps what other instances (or this one, before a restart) put there: only the
  // workspaces it does not have yet are seeded.
  try {
    await paymentsPart.ensureWorkspaces();
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
    // While the database is away every request answers 503 with Retry-After, never a 500.
    failureOf: databaseAwayFailure,
    ...(config.logRequests ? { requestLog: log ?? ((line) => process.stdout.write(`${line}\n`)) } : {}),
  });
  metrics.observeRequests(app);
  registerHealthRoutes(app, { metrics, storesNotReady: () => stores.notReady(), loops });
  // The request log records each answer as handled, with its fault's name, in the fault hooks' own
  // onSend hook: every request runs one hook on its way out, not two.
  if (faults) registerFaultHooks(app, requestLog ? { beforeStrike: requestLog.recorder(app) } : {});
  else requestLog?.register(app);
  registerPaymentsApi(app, { config, store: payments, clocks, secret, apiKeys, faults });
  registerGatewayApi(app, { config, store: gateway, clocks, secret, faults });
  if (config.control) {
    registerControlApi(app, controlAuthenticator(apiKeys, gateway, clocks, signerOf), [
      (control, ctx) => registerClockControls(control, clocks, ctx),
      (control, ctx) => registerResetControl(control, { clocks, faults, resetWorkspace, resetGateway }, ctx),
      ...features.flatMap((feature) => (feature.controlRoutes ? [feature.controlRoutes] : [])),
    ]);
    await registerDashboard(app, {
      secret,
      sessions: sessions.sessions,
      signInPage: sessions.signInPage,
      keyOfTag: (tag) => byTag.get(tag),
      navCounts: async (key) => ({ "/approvals": await approvalsWaiting(payments, key) }),
      catchUp: async (key) => catchUp.apply(key, await clocks.now(workspaceScope(key)), REQUEST_CHUNKS),
      scripts: Object.assign({}, ...features.map((feature) => feature.scripts ?? {})),
      features: features.flatMap((feature) => (feature.dashboardPages ? [feature.dashboardPages] : [])),
    });
  }
  // Mail, queued exports and schedules run in the background.
  for (const feature of features) feature.start?.();
  await app.ready();
  // In this order: no new connection and every request in flight answered (Fastify's close; its
  // own onClose hooks run before that wait, so nothing that requests use may stop in one); then the
  // background loops' current runs (last started first); then the store.
  const close = async () => {
    await app.close();
    for (const feature of [...features].reverse()) await feature.stop?.();
    if (!given) await stores.close();
  };
  return {
    app,
    config,
    clocks,
    stores,
    faults: faultHelpers(faults, config.apiKeys[0] ?? ""),
    reset,
    close,
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
