import type { FastifyInstance } from "fastify";
import { apiKeysDeclaration } from "../api-keys/index.js";
import { approvalsWaiting } from "../approval-workflow/index.js";
import { clockDeclaration, workspaceScope } from "../clock/index.js";
import { dashboardSessionsDeclaration } from "../dashboard-sessions/index.js";
import type { SandboxConfig } from "../infrastructure/config/config.js";
import { registerControlApi } from "../infrastructure/control-api/control-api.js";
import { registerDashboard } from "../infrastructure/dashboard-shell/dashboard.js";
import type { ComposedFeatures } from "../infrastructure/features/feature-declaration.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { paymentsDeclaration, REQUEST_CHUNKS } from "../payments/index.js";
import { workspaceTag } from "../workspaces/index.js";
import { controlAuthenticator } from "./control-access.js";
import type { SandboxStores } from "./sandbox-stores.js";

export interface ShellDeps {
  readonly config: SandboxConfig;
  readonly secret: SandboxSecret;
  readonly stores: SandboxStores;
  readonly composed: ComposedFeatures;
}

/**
 * The control API (/_sandbox) and the dashboard: the shells every feature's control routes and pages
 * live in, behind their authentication (a workspace's key or a gateway token; dashboard sessions).
 */
export async function registerShells(app: FastifyInstance, { config, secret, stores, composed }: ShellDeps) {
  const clocks = composed.use(clockDeclaration);
  const { apiKeys, signerOf } = composed.use(apiKeysDeclaration);
  const { payments, catchUp } = composed.use(paymentsDeclaration);
  const sessions = composed.use(dashboardSessionsDeclaration);
  const features = composed.features;
  registerControlApi(
    app,
    controlAuthenticator(apiKeys, stores.gateway, clocks, signerOf),
    features.flatMap((feature) => (feature.controlRoutes ? [feature.controlRoutes] : [])),
  );
  const byTag = new Map(config.apiKeys.map((key) => [workspaceTag(key), key]));
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
