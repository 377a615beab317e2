/** The sandbox's notion of now: real time plus whatever /_sandbox/clock/advance added. */
export class SandboxClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}
