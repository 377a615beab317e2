import { ApiFailure } from "@payspec/server-kit";

/** How far one scope's clock may be moved ahead in all: far enough for any test, far from Date's limits. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 365 * 86_400;

/** The gateway's clock scope; each payments workspace has its own (`workspaceScope`). */
export const GATEWAY_SCOPE = "gateway";

export function workspaceScope(apiKey: string): string {
  return `workspace:${apiKey}`;
}

/**
 * The sandbox's notion of now, per scope (each workspace, and the gateway), like Stripe's test
 * clocks: real time plus whatever /_sandbox/clock/advance added in that scope, so one team's test
 * moving time never completes another team's payments.
 */
export class SandboxClocks {
  #offsetMs = new Map<string, number>();

  now(scope: string): number {
    return Date.now() + (this.#offsetMs.get(scope) ?? 0);
  }

  /** Moves a scope's clock forward; refuses (400) past MAX_CLOCK_ADVANCE_SECONDS in all. */
  advance(scope: string, seconds: number): number {
    const offset = (this.#offsetMs.get(scope) ?? 0) + seconds * 1000;
    if (offset > MAX_CLOCK_ADVANCE_SECONDS * 1000) {
      const left = Math.floor(MAX_CLOCK_ADVANCE_SECONDS - (this.#offsetMs.get(scope) ?? 0) / 1000);
      throw new ApiFailure(
        "invalid_request",
        `The clock may move at most ${MAX_CLOCK_ADVANCE_SECONDS} s (10 years) ahead in all; ${left} s are left. POST /_sandbox/reset puts it back to real time.`,
        { param: "seconds" },
      );
    }
    this.#offsetMs.set(scope, offset);
    return this.now(scope);
  }

  /** One scope, or every scope, back to real time. */
  reset(scope?: string): void {
    if (scope === undefined) this.#offsetMs.clear();
    else this.#offsetMs.delete(scope);
  }
}
