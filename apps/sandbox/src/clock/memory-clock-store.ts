import type { ClockStore } from "./clock-store.js";

/** Clock offsets for one process. */
export class MemoryClockStore implements ClockStore {
  #offsetMs = new Map<string, number>();

  async offsetMs(scope: string) {
    return this.offsetMsKnown(scope);
  }

  offsetMsKnown(scope: string): number {
    return this.#offsetMs.get(scope) ?? 0;
  }

  async advance(scope: string, ms: number, maxMs: number) {
    const current = this.#offsetMs.get(scope) ?? 0;
    if (current + ms > maxMs || current + ms < 0) return { moved: false, offsetMs: current };
    this.#offsetMs.set(scope, current + ms);
    return { moved: true, offsetMs: current + ms };
  }

  async reset(scope?: string) {
    if (scope === undefined) this.#offsetMs.clear();
    else this.#offsetMs.delete(scope);
  }
}
