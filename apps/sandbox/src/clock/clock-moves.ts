import { parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import type { SandboxClocks } from "./clock.js";

const moveClock = z.object({ body: z.strictObject({ seconds: z.number().positive() }) });

/**
 * Moves a scope's clock by `input` (`{seconds}`, positive) forward or back, for the control API and the
 * Settings page alike; the new now, or the ApiFailure that says what is wrong (not a positive number,
 * past the allowance).
 */
export async function moveClockBy(
  clocks: SandboxClocks,
  scope: string,
  direction: "advance" | "rewind",
  input: unknown,
): Promise<number> {
  const { body } = parseRequest(moveClock, { body: input });
  return direction === "advance" ? clocks.advance(scope, body.seconds) : clocks.rewind(scope, body.seconds);
}
