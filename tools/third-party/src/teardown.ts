/**
 * What a server's start has brought up so far (its database server, its process, its temporary
 * directories), undone in reverse order: by its stop, or at once when a later step of the start fails.
 * A start that failed half-way once left its PostgreSQL running after the test run had ended.
 */
export class Teardown {
  readonly #undo: (() => Promise<void>)[] = [];
  readonly #starting: Promise<unknown>[] = [];

  /** Undone by `undo` once it is there; for a step started beside others (in a `Promise.all`). */
  adopt<T>(started: Promise<T>, undo: (thing: T) => Promise<void>): Promise<T> {
    const kept = started.then((thing) => {
      this.#undo.push(() => undo(thing));
      return thing;
    });
    this.#starting.push(kept.catch(() => undefined));
    return kept;
  }

  /** Undone by `undo`, before everything added earlier. */
  add(undo: () => Promise<void>): void {
    this.#undo.push(undo);
  }

  /** Waits for the steps still starting, then undoes every one, the last first; fails after all with the first failure. */
  async run(): Promise<void> {
    await Promise.all(this.#starting.splice(0));
    const failures: unknown[] = [];
    for (const undo of this.#undo.splice(0).reverse()) await undo().catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  }
}

/** Runs a start; when it fails, undoes what it had brought up before failing with the start's own error. */
export async function startingWith<T>(start: (teardown: Teardown) => Promise<T>): Promise<T> {
  const teardown = new Teardown();
  try {
    return await start(teardown);
  } catch (error) {
    await teardown.run().catch(() => undefined);
    throw error;
  }
}
