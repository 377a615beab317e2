import { zPaymentStatus } from "@payspec/payments-zod";
import { ApiFailure, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SandboxClock } from "../clock.js";
import { paymentToApi } from "../payments/serialize.js";
import type { PaymentsStore } from "../store/index.js";

export interface ControlApiDeps {
  readonly store: PaymentsStore;
  readonly clock: SandboxClock;
  /** Puts both services back to their seeded state. */
  readonly reset: () => Promise<void>;
}

const forceStatus = z.object({ body: z.strictObject({ status: zPaymentStatus }) });
const advanceClock = z.object({
  body: z.strictObject({
    seconds: z
      .number()
      .positive()
      .max(10 * 365 * 86_400),
  }),
});

/**
 * /_sandbox: test controls that are not part of either public API. Off when PAYSPEC_SANDBOX_CONTROL=off.
 * Errors use the payments API's shape.
 */
export function registerControlApi(app: FastifyInstance, { store, clock, reset }: ControlApiDeps): void {
  app.post("/_sandbox/reset", async () => {
    await reset();
    return { reset: true, now: new Date(clock.now()).toISOString() };
  });

  app.post<{ Params: { id: string } }>("/_sandbox/payments/:id/status", async (request) => {
    const { body } = parseRequest(forceStatus, { body: request.body });
    const found = await store.locate(request.params.id);
    if (!found) throw new ApiFailure("not_found", `No payment ${request.params.id} in any workspace.`, { param: "id" });
    const result = await store.transition(found.workspace, request.params.id, "any", body.status, clock.now());
    if (!result.ok) throw new ApiFailure("not_found", `No payment ${request.params.id}.`, { param: "id" });
    return paymentToApi(result.payment);
  });

  app.post("/_sandbox/clock/advance", async (request) => {
    const { body } = parseRequest(advanceClock, { body: request.body });
    clock.advance(body.seconds);
    return { now: new Date(clock.now()).toISOString() };
  });
}
