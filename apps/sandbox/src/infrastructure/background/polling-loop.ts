/** What a background loop reports to `/readyz` and `/metrics`. */
export interface LoopStatus {
  readonly name: string;
  /** Started and not stopped. */
  readonly running: boolean;
  /** When its last run ended (ms since the epoch), if one has. */
  readonly lastRunEndedAt: number | undefined;
  readonly runs: number;
  /** Runs that ended in an error (retried at the next turn). */
  readonly failedRuns: number;
}

/**
 * Background work that looks for something to do now and again: `work` runs at `start()`, then
 * `intervalMs` after each run ends (never two at once), or at once on `wake()`. A failed run is
 * retried at the next turn; `stop()` waits for a run in progress to finish. The timer does not keep
 * the process alive.
 */
export class PollingLoop {
  readonly name: string;
  readonly #work: () => Promise<void>;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #started = false;
  #stopped = false;
  #lastRunEndedAt: number | undefined;
  #runs = 0;
  #failedRuns = 0;

  /** `name`: how operators see it in `/readyz` and `/metrics` ("payments-due", "mail"). */
  constructor(name: string, work: () => Promise<void>, intervalMs: number) {
    this.name = name;
    this.#work = work;
    this.#intervalMs = intervalMs;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  status(): LoopStatus {
    return {
      name: this.name,
      running: this.#started && !this.#stopped,
      lastRunEndedAt: this.#lastRunEndedAt,
      runs: this.#runs,
      failedRuns: this.#failedRuns,
    };
  }

  start(): void {
    this.#started = true;
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
        .catch(() => {
          this.#failedRuns++;
        })
        .finally(() => {
          this.#runs++;
          this.#lastRunEndedAt = Date.now();
          this.#running = undefined;
          if (!this.#stopped) this.#next(this.#intervalMs);
        });
    }, ms);
    this.#timer.unref();
  }
}
