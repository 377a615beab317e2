import { type LoopStatus, PollingLoop } from "./polling-loop.js";

/**
 * Work that a feature does in the background (mail, queued exports, scheduled reports, payments
 * falling due): one polling loop, and what the server asks of each: start, stop (the current run
 * finished), a wake when something was just queued, and the loop's status for `/readyz` and `/metrics`.
 */
export abstract class BackgroundWork {
  protected readonly loop: PollingLoop;

  /** `name`: how operators see the loop ("mail", "exports"); it runs `runOnce` every `intervalMs`. */
  constructor(name: string, intervalMs: number) {
    this.loop = new PollingLoop(name, () => this.runOnce(), intervalMs);
  }

  /** One turn: do what is due now. */
  protected abstract runOnce(): Promise<void>;

  loopStatus(): LoopStatus {
    return this.loop.status();
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for work now (something was just queued) instead of at the next turn. */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
