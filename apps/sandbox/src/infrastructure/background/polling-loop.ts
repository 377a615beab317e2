/**
 * Background work that looks for something to do now and again: `work` runs at `start()`, then
 * `intervalMs` after each run ends (never two at once), or at once on `wake()`. A failed run is
 * retried at the next turn; `stop()` waits for a run in progress to finish. The timer does not keep
 * the process alive.
 */
export class PollingLoop {
  readonly #work: () => Promise<void>;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(work: () => Promise<void>, intervalMs: number) {
    this.#work = work;
    this.#intervalMs = intervalMs;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    this.#next(0);
  }

  /** Runs soon instead of at the next turn (something was just queued); nothing if a run is under way. */
  wake(): void {
    if (!this.#stopped && !this.#running) this.#next(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #next(ms: number) {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#running = this.#work()
        .catch(() => undefined)
        .finally(() => {
          this.#running = undefined;
          if (!this.#stopped) this.#next(this.#intervalMs);
        });
    }, ms);
    this.#timer.unref();
  }
}
