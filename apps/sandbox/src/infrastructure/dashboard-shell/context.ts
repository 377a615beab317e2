import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from "fastify";
import type { Locale } from "../i18n/locale.js";
import type { Flash } from "./flash.js";
import type { SafeHtml } from "./html.js";
import type { SignedInSession } from "./signed-in-session.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in workspace's API key ("" when nobody is signed in). */
    dashboardKey: string;
    /** The signed-in session (a workspace's or the gateway's), if any. */
    dashboardSession: SignedInSession | undefined;
    /** The language the request's pages are written in (see i18n/locale). */
    dashboardLocale: Locale;
    /** Counts for the navigation (GET pages of a signed-in workspace). */
    dashboardNavCounts: Readonly<Record<string, number>> | undefined;
  }
}

/** What every feature's dashboard pages get from the shell: the page plumbing. */
export interface DashboardContext {
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
  /** The sign-in page (the dashboard-sessions feature's), for a page whoever is not signed in may ask for. */
  signInPage(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
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

/** A feature's pages under /_sandbox/dashboard, registered inside the shell (its sessions, CSRF and origin checks). */
export type DashboardPages = (dashboard: FastifyInstance, ctx: DashboardContext) => void;
