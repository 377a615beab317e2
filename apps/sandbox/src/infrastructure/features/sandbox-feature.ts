import type { FastifyInstance } from "fastify";
import type { LoopStatus } from "../background/polling-loop.js";
import type { ControlRoutes } from "../control-api/control-api.js";
import type { DashboardPages } from "../dashboard-shell/context.js";

/**
 * One feature of the sandbox as the server sees it (fastify's plugin model, made explicit): the
 * routes it adds to the APIs, the control API and the dashboard, and what it does when a workspace or
 * the whole sandbox is reset, started or stopped. Built from its declaration (feature-declaration.ts);
 * the app lists the declarations (app/sandbox-features.ts).
 */
export interface SandboxFeature {
  readonly name: string;
  /** Hooks on every request of both APIs (faults, the request log): added before any route. */
  apiHooks?(app: FastifyInstance): void;
  /** Routes outside the control API and the dashboard: the public APIs, the operators' probes. */
  apiRoutes?(app: FastifyInstance): void;
  /** Routes under /_sandbox, behind the control API's authentication. */
  readonly controlRoutes?: ControlRoutes;
  /** Pages under /_sandbox/dashboard, behind its sessions, CSRF and origin checks. */
  readonly dashboardPages?: DashboardPages;
  /** Scripts the feature's pages load from /_sandbox/dashboard/assets/ (name → JavaScript). */
  readonly scripts?: Readonly<Record<string, string>>;
  /** One workspace back to how the sandbox starts it: what the feature keeps for it is gone. */
  resetWorkspace?(apiKey: string): Promise<void>;
  /** The whole sandbox back to its start (every workspace; the gateway). */
  reset?(): Promise<void>;
  /** Background work (mail, queued exports, schedules): started once the server is built. */
  start?(): void;
  /** Stops background work before the stores close. */
  stop?(): Promise<void>;
  /** Its background loops as they are now, for `/readyz` and `/metrics`. */
  backgroundLoops?(): readonly LoopStatus[];
  /** Work that has fallen due and its background loop has not done yet, by what it is (for `/metrics`). */
  dueBacklog?(): Promise<Readonly<Record<string, number>>>;
}
