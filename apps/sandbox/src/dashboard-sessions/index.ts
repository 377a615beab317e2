/**
 * Dashboard sessions: server-side sessions (the cookie holds a random id, the store its hash) for a
 * workspace's API key or the gateway's credentials, with idle and absolute timeouts, the sign-in
 * form's CSRF token, and the sign-in and sign-out pages. The dashboard shell asks it who is signed in.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { apiKeysDeclaration, UNKNOWN_KEY } from "../api-keys/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { workspaceTag } from "../workspaces/index.js";
import { DashboardSessions } from "./dashboard-sessions.js";
import type { SessionStores } from "./open-session-stores.js";
import type { SessionStore } from "./session-store.js";
import { type SignInDeps, signInPage, signInPages } from "./sign-in-pages.js";

export interface SessionsDeps extends Omit<SignInDeps, "sessions"> {
  readonly store: SessionStore;
  readonly secret: SandboxSecret;
  readonly timeouts: { readonly idleSeconds: number; readonly maxSeconds: number };
}

export interface SessionsFeature extends SandboxFeature {
  /** Who is signed in, for the dashboard shell. */
  readonly sessions: DashboardSessions;
  /** The sign-in page, for the shell to show whoever is not signed in. */
  readonly signInPage: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

export function dashboardSessionsFeature({ store, secret, timeouts, ...signIn }: SessionsDeps): SessionsFeature {
  const sessions = new DashboardSessions(store, secret, {
    idleMs: timeouts.idleSeconds * 1000,
    maxMs: timeouts.maxSeconds * 1000,
  });
  const page = signInPage(sessions);
  return {
    name: "dashboard-sessions",
    sessions,
    signInPage: (request, reply) => page(request, reply),
    dashboardPages: signInPages({ sessions, ...signIn }),
    // Everyone signed in to the workspace's dashboard starts again: a reset is a new workspace.
    resetWorkspace: (apiKey) => store.deleteFor({ kind: "workspace", tag: workspaceTag(apiKey) }),
  };
}
export { openSessionStores, type SessionStores } from "./open-session-stores.js";
export type { SessionStore } from "./session-store.js";

/** Sign-in with a workspace's key (configured or made in the sandbox) or the gateway's credentials. */
export const dashboardSessionsDeclaration: FeatureDeclaration<SessionsFeature, SessionStores> = {
  name: "dashboard-sessions",
  needs: [apiKeysDeclaration],
  build: ({ config, stores, secret, use }) => {
    const { apiKeys, signerOf } = use(apiKeysDeclaration);
    const feature = dashboardSessionsFeature({
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
    return { provides: feature, feature };
  },
};
