import { ApiFailure, credentialsFor } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type ControlContext, type ControlScope, clockScope } from "./control-context.js";

declare module "fastify" {
  interface FastifyRequest {
    controlScope?: ControlScope;
  }
}

/** The caller's scope for a credential, or a sentence saying why it opens nothing (401). */
export type ControlAuthenticator = (credential: string) => Promise<ControlScope | { readonly refused: string }>;

/** A feature's routes under /_sandbox, registered behind the control API's authentication. */
export type ControlRoutes = (control: FastifyInstance, ctx: ControlContext) => void;

/**
 * /_sandbox: test controls that are not part of either public API (off with PAYSPEC_SANDBOX_CONTROL=off).
 * Every call authenticates like the API it controls and acts on that caller's scope only:
 * `Bearer <API key>` is one workspace (its payments, its clock, its reset), `Bearer <access token>`
 * is the gateway. Errors use the payments API's shape. Each feature brings its own routes.
 */
export function registerControlApi(
  app: FastifyInstance,
  authenticate: ControlAuthenticator,
  features: readonly ControlRoutes[],
): void {
  const ctx: ControlContext = {
    scopeOf: (request: FastifyRequest) => request.controlScope as ControlScope,
    workspaceOf: (request: FastifyRequest, what: string) => {
      const scope = request.controlScope as ControlScope;
      if (scope.kind !== "workspace") {
        throw new ApiFailure("forbidden", `${what} needs a workspace's API key, not a gateway token.`);
      }
      return scope.apiKey;
    },
    clockScopeOf: (request: FastifyRequest) => clockScope(request.controlScope as ControlScope),
  };
  app.register(async (control) => {
    control.addHook("onRequest", async (request) => {
      const scope = await authenticate(credentialsFor("Bearer", request.headers.authorization) ?? "");
      if ("refused" in scope) throw new ApiFailure("unauthorized", scope.refused);
      request.controlScope = scope;
    });
    for (const routes of features) routes(control, ctx);
  });
}
