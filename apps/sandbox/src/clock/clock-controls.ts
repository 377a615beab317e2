import { parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { SandboxClocks } from "./clock.js";

const moveClock = z.object({ body: z.strictObject({ seconds: z.number().positive() }) });

/** `POST /_sandbox/clock/advance` and `/rewind`: the caller's own clock (its workspace's, or the gateway's). */
export function registerClockControls(control: FastifyInstance, clocks: SandboxClocks, ctx: ControlContext): void {
  control.post("/_sandbox/clock/advance", async (request) => {
    const { body } = parseRequest(moveClock, { body: request.body });
    const now = await clocks.advance(ctx.clockScopeOf(request), body.seconds);
    return { now: new Date(now).toISOString() };
  });

  control.post("/_sandbox/clock/rewind", async (request) => {
    const { body } = parseRequest(moveClock, { body: request.body });
    const now = await clocks.rewind(ctx.clockScopeOf(request), body.seconds);
    return { now: new Date(now).toISOString() };
  });
}
