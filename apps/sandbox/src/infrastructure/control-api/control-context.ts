import type { FastifyRequest } from "fastify";
import { GATEWAY_SCOPE, workspaceScope } from "../time/clock-scopes.js";

/** Whom a control call acts for: one payments workspace (its API key) or the gateway (an access token). */
export type ControlScope =
  | {
      readonly kind: "workspace";
      readonly apiKey: string;
      /** Who calls, as histories record it: the key's fingerprint and its mask (never the key). */
      readonly signer?: string;
    }
  | { readonly kind: "gateway" };

/** What a feature's control routes get from the control API: who is calling. */
export interface ControlContext {
  /** The caller's scope, established before any route runs. */
  scopeOf(request: FastifyRequest): ControlScope;
  /** The workspace's API key; a gateway token is refused (403) with `what` named in the message. */
  workspaceOf(request: FastifyRequest, what: string): string;
  /** The clock (and fault) scope the caller acts on: its workspace's, or the gateway's. */
  clockScopeOf(request: FastifyRequest): string;
}

export function clockScope(scope: ControlScope): string {
  return scope.kind === "gateway" ? GATEWAY_SCOPE : workspaceScope(scope.apiKey);
}
