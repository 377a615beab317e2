import type { FastifyInstance } from "fastify";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { DeclaredFaults } from "./declared-faults.js";

/**
 * `POST /_sandbox/faults` declares a fault for the caller's workspace (or the gateway, with a gateway
 * token), `GET` lists them with how often each struck, `DELETE` clears them. Never anonymous: the
 * control API's hook has authenticated the caller already.
 */
export function registerFaultControls(control: FastifyInstance, faults: DeclaredFaults, ctx: ControlContext): void {
  control.post("/_sandbox/faults", async (request, reply) => {
    const api = ctx.scopeOf(request).kind === "gateway" ? "gateway" : "payments";
    reply.code(201);
    return faults.declare(ctx.clockScopeOf(request), request.body, api);
  });
  control.get("/_sandbox/faults", async (request) => ({ faults: faults.list(ctx.clockScopeOf(request)) }));
  control.delete("/_sandbox/faults", async (request) => ({ cleared: faults.clear(ctx.clockScopeOf(request)) }));
}
