import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DeclaredFaults } from "../faults/declared-faults.js";

/** The scope a control call acts on (a workspace's clock scope, or the gateway's) and its API. */
export type FaultScopeOf = (request: FastifyRequest) => { scope: string; api: "payments" | "gateway" };

/**
 * `POST /_sandbox/faults` declares a fault for the caller's workspace (or the gateway, with a gateway
 * token), `GET` lists them with how often each struck, `DELETE` clears them. Never anonymous: the
 * control API's hook has authenticated the caller already.
 */
export function registerFaultControls(control: FastifyInstance, faults: DeclaredFaults, scopeOf: FaultScopeOf): void {
  control.post("/_sandbox/faults", async (request, reply) => {
    const { scope, api } = scopeOf(request);
    return reply.code(201).send(faults.declare(scope, request.body, api));
  });
  control.get("/_sandbox/faults", async (request) => ({ faults: faults.list(scopeOf(request).scope) }));
  control.delete("/_sandbox/faults", async (request) => ({ cleared: faults.clear(scopeOf(request).scope) }));
}
