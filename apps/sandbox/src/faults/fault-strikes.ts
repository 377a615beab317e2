import { actBeforeHandling } from "@payspec/server-kit";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { DeclaredFaults } from "./declared-faults.js";
import { operationKey } from "./operation-names.js";

/**
 * Decides whether a declared fault strikes this request (its scope known: the caller is
 * authenticated), marks the request for the way out, and acts on the faults that strike before
 * handling. Throws what the error handler renders.
 */
export async function faultBeforeHandling(
  faults: DeclaredFaults,
  scope: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  // Most requests come from a workspace with no faults: one Map lookup, nothing else.
  if (!faults.hasAny(scope)) return;
  const strike = faults.strike(scope, operationKey(request.method, request.routeOptions.url ?? ""));
  if (strike === undefined) return;
  request.faultStrike = strike;
  await actBeforeHandling(strike, reply);
}
