import type { FastifyInstance } from "fastify";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { SandboxClocks } from "./clock.js";
import { moveClockBy } from "./clock-moves.js";

/** `POST /_sandbox/clock/advance` and `/rewind`: the caller's own clock (its workspace's, or the gateway's). */
export function registerClockControls(control: FastifyInstance, clocks: SandboxClocks, ctx: ControlContext): void {
  for (const direction of ["advance", "rewind"] as const) {
    control.post(`/_sandbox/clock/${direction}`, async (request) => ({
      now: new Date(await moveClockBy(clocks, ctx.clockScopeOf(request), direction, request.body)).toISOString(),
    }));
  }
}
