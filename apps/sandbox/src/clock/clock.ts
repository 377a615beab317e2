import { ApiFailure } from "@payspec/server-kit";
import { t } from "../infrastructure/i18n/locale.js";
import type { ClockStore } from "./clock-store.js";

export { GATEWAY_SCOPE, workspaceScope } from "../infrastructure/time/clock-scopes.js";

/** How far one scope's clock may be moved ahead in all: far enough for any test, far from Date's limits. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 365 * 86_400;

/**
 * The sandbox's notion of now, per scope (each workspace, and the gateway), like Stripe's test
 * clocks: real time plus whatever /_sandbox/clock/advance added in that scope, so one team's test
 * moving time never completes another team's payments. The offsets live in the store, so instances
 * sharing a database share their clocks.
 */
export class SandboxClocks {
  readonly #offsets: ClockStore;

  constructor(offsets: ClockStore) {
    this.#offsets = offsets;
  }

  async now(scope: string): Promise<number> {
    return (await this.read(scope)).now;
  }

  /** Now, with the offset from real time it was worked out with. */
  async read(scope: string): Promise<{ readonly now: number; readonly offsetMs: number }> {
    const offsetMs = await this.#offsets.offsetMs(scope);
    return { now: Date.now() + offsetMs, offsetMs };
  }

  /** Now, at once, when the offsets live in this process; undefined when the store must be asked. */
  nowIfKnown(scope: string): number | undefined {
    const offset = this.#offsets.offsetMsKnown?.(scope);
    return offset === undefined ? undefined : Date.now() + offset;
  }

  /**
   * Now by this process's last reading of the scope's offset, at once, for a write that its store
   * checks against the offset again as it stores it (see NewPayment.clockOffsetMs); undefined when
   * the store keeps no such reading.
   */
  lastReading(scope: string): { readonly now: number; readonly offsetMs: number } | undefined {
    const offsetMs = this.#offsets.lastOffsetMs?.(scope);
    return offsetMs === undefined ? undefined : { now: Date.now() + offsetMs, offsetMs };
  }

  /** Moves a scope's clock forward; refuses (400) past MAX_CLOCK_ADVANCE_SECONDS in all. */
  async advance(scope: string, seconds: number): Promise<number> {
    const maxMs = MAX_CLOCK_ADVANCE_SECONDS * 1000;
    const ms = Math.round(seconds * 1000);
    // A step beyond the whole allowance is refused before it reaches a store that keeps 64-bit integers.
    const result =
      ms <= maxMs
        ? await this.#offsets.advance(scope, ms, maxMs)
        : { moved: false, offsetMs: await this.#offsets.offsetMs(scope) };
    if (!result.moved) {
      const left = Math.floor(MAX_CLOCK_ADVANCE_SECONDS - result.offsetMs / 1000);
      throw new ApiFailure(
        "invalid_request",
        t(
          `The clock may move at most ${MAX_CLOCK_ADVANCE_SECONDS} s (10 years) ahead in all; ${left} s are left. POST /_sandbox/reset puts it back to real time.`,
          `Saat toplamda en çok ${MAX_CLOCK_ADVANCE_SECONDS} sn (10 yıl) ileri alınabilir; ${left} sn kaldı. Sıfırlama (POST /_sandbox/reset) onu gerçek zamana döndürür.`,
        ),
        { param: "seconds" },
      );
    }
    return Date.now() + result.offsetMs;
  }

  /**
   * Moves a scope's clock back by what a test moved it forward (a verifier run putting back what it
   * moved); refuses (400) to go before real time.
   */
  async rewind(scope: string, seconds: number): Promise<number> {
    const result = await this.#offsets.advance(scope, -Math.round(seconds * 1000), MAX_CLOCK_ADVANCE_SECONDS * 1000);
    if (!result.moved) {
      throw new ApiFailure(
        "invalid_request",
        t(
          `The clock is ${Math.floor(result.offsetMs / 1000)} s ahead of real time; it cannot move back further than real time. POST /_sandbox/reset puts it back to real time.`,
          `Saat gerçek zamanın ${Math.floor(result.offsetMs / 1000)} sn ilerisinde; gerçek zamandan daha geriye alınamaz. Sıfırlama (POST /_sandbox/reset) onu gerçek zamana döndürür.`,
        ),
        { param: "seconds" },
      );
    }
    return Date.now() + result.offsetMs;
  }

  /** One scope, or every scope, back to real time. */
  async reset(scope?: string): Promise<void> {
    await this.#offsets.reset(scope);
  }
}
