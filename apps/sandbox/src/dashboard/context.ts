import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from "fastify";
import type { ApiKeys } from "../api-keys/api-keys.js";
import type { SandboxClocks } from "../clock.js";
import type { ExportQueue } from "../exports/export-queue.js";
import type { Mailer } from "../mail/mailer.js";
import type { SandboxSecret } from "../sandbox-secret.js";
import type { ReportSchedules } from "../scheduled-reports/report-schedules.js";
import type { DashboardSession, GatewayStore, PaymentsStore, SessionStore } from "../store/index.js";
import type { ApiRequestLog } from "./api-request-log.js";
import type { Flash } from "./flash.js";
import type { SafeHtml } from "./html.js";

export interface DashboardDeps {
  /** Every key that signs in to a workspace: configured and created ones, live ones only. */
  readonly apiKeys: ApiKeys;
  /** The configured keys (PAYSPEC_API_KEYS): each names one workspace. */
  readonly workspaceKeys: readonly string[];
  readonly payments: PaymentsStore;
  readonly gateway: GatewayStore;
  readonly clocks: SandboxClocks;
  readonly secret: SandboxSecret;
  readonly completeAfterMs: number;
  readonly requestLog: ApiRequestLog;
  readonly sessions: SessionStore;
  readonly sessionTimeouts: { readonly idleSeconds: number; readonly maxSeconds: number };
  readonly mailer: Mailer;
  readonly exports: ExportQueue;
  readonly schedules: ReportSchedules;
  /** An export of more rows than this is queued and e-mailed instead of downloaded. */
  readonly exportQueueRows: number;
  /** The gateway's Basic-login credentials: the only sign-in that shows the gateway's data. */
  readonly gatewayCredentials: { readonly key: string; readonly secret: string };
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in workspace's API key ("" when nobody is signed in). */
    dashboardKey: string;
    /** The signed-in session (a workspace's or the gateway's), if any. */
    dashboardSession: DashboardSession | undefined;
  }
}

/** What every dashboard page module gets: the sandbox's parts and the page plumbing. */
export interface DashboardContext {
  readonly deps: DashboardDeps;
  /** The sandbox itself, for calls through its control API (same rules, same messages). */
  readonly app: FastifyInstance;
  /** Route option: sends whoever is not signed in to the sign-in page. */
  readonly requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Route option: the gateway's pages, for a session signed in with the gateway's credentials only. */
  readonly requireGatewaySession: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The session's CSRF token, for a page's forms. */
  csrf(request: FastifyRequest): string;
  /** A full page for the signed-in workspace or gateway: header, navigation, sign out. */
  render(request: FastifyRequest, reply: FastifyReply, title: string, content: SafeHtml, status?: number): FastifyReply;
  /**
   * The answer to every successful action (Post/Redirect/Get): 303 to a page that answers a GET,
   * which shows `flash` once, so a reload repeats the GET and never the action.
   */
  redirect(request: FastifyRequest, reply: FastifyReply, path: string, flash?: Flash): FastifyReply;
  /** Time's effects applied to the workspace (completion, settlement), as the API does before it reads anything. */
  catchUp(key: string): Promise<void>;
  /** A call to the control API as this workspace (Bearer <its key>). */
  control(
    key: string,
    method: "POST" | "GET" | "DELETE" | "PUT",
    url: string,
    body?: object | Buffer,
  ): Promise<LightMyRequestResponse>;
}
