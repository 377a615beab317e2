/**
 * Dashboard sessions: server-side sessions (the cookie holds a random id, the store its hash) for a
 * workspace's API key or the gateway's credentials, with idle and absolute timeouts, the sign-in
 * form's CSRF token, and the sign-in and sign-out pages. The dashboard shell asks it who is signed in.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { workspaceTag } from "../infrastructure/workspaces/workspace-tag.js";
import { DashboardSessions } from "./dashboard-sessions.js";
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
