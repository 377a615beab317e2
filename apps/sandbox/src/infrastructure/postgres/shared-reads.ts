interface KeyReads<V> {
  /** The query on its way for this key. */
  current: Promise<V> | undefined;
  /** The query that goes once `current` is answered, shared by every read that asked meanwhile. */
  next: Promise<V> | undefined;
}

const ignore = () => undefined;

/**
 * Reads of one key that arrive while the same read is on its way to PostgreSQL share the next query
 * instead of each sending its own: under load one round trip answers every waiting create of a
 * workspace, as group commit does for its inserts. A read never takes the answer of a query sent
 * before it asked, so it still sees every write committed before it asked.
 */
export class SharedReads<V> {
  readonly #read: (key: string) => Promise<V>;
  readonly #keys = new Map<string, KeyReads<V>>();

  constructor(read: (key: string) => Promise<V>) {
    this.#read = read;
  }

  get(key: string): Promise<V> {
    let reads = this.#keys.get(key);
    if (!reads) {
      reads = { current: undefined, next: undefined };
      this.#keys.set(key, reads);
    }
    const { current } = reads;
    // The last query is answered and the one for the reads that waited has not gone yet: it goes after
    // this read asked, so this read joins it. A second query beside it would also leave the waiting
    // one of SharedReadsAsOfLatest no moment to be asked as of.
    if (current === undefined) return reads.next ?? this.#send(key, reads);
    const waiting = reads;
    waiting.next ??= current.then(ignore, ignore).then(() => {
      waiting.next = undefined;
      return this.#send(key, waiting);
    });
    return waiting.next;
  }

  #send(key: string, reads: KeyReads<V>): Promise<V> {
    const query = this.#read(key);
    reads.current = query;
    const answered = () => {
      if (reads.current === query) reads.current = undefined;
      if (reads.current === undefined && reads.next === undefined) this.#keys.delete(key);
    };
    query.then(answered, answered);
    return query;
  }
}

/**
 * SharedReads for a question asked as of a moment whose yes-or-no part can only turn from no to yes as
 * the moment moves on ("is anything due by now?"). Reads waiting for one key's next query share it,
 * asked as of the latest of their moments: a no then holds for each of them, and a yes sends each
 * caller to work that looks again as of its own moment, so a shared yes costs a look, never a wrong
 * answer.
 */
export class SharedReadsAsOfLatest<V = boolean> {
  readonly #latest = new Map<string, number>();
  readonly #reads: SharedReads<V>;

  constructor(read: (key: string, asOf: number) => Promise<V>) {
    this.#reads = new SharedReads((key) => {
      // Set by every read that asked since the last query went: the query goes as of the latest.
      const asOf = this.#latest.get(key) as number;
      this.#latest.delete(key);
      return read(key, asOf);
    });
  }

  get(key: string, asOf: number): Promise<V> {
    const latest = this.#latest.get(key);
    if (latest === undefined || asOf > latest) this.#latest.set(key, asOf);
    return this.#reads.get(key);
  }
}

interface BatchWaiter<V> {
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

interface Batch<V> {
  /** Its items, each with the reads waiting for it. */
  readonly items: Map<string, BatchWaiter<V>[]>;
  /** The latest moment its reads asked as of (see SharedReadsAsOfLatest); 0 when none gave one. */
  asOf: number;
}

/**
 * Reads of items of one group (a workspace's payments, by id) go to PostgreSQL together, in one query
 * (as a DataLoader batches them): those asked in one run of the event loop's microtasks, and, while a
 * group's query is on its way, all those asked meanwhile, which go as the next query once it is
 * answered (as SharedReads shares a query). Under load, a turn's GETs of a workspace cost one round
 * trip instead of one each. A batch goes once every read of that run has asked, so a read is answered
 * only by a query sent after it asked, and sees every write committed before it asked. A read may give
 * the moment it asks as of: its batch goes as of the latest, as SharedReadsAsOfLatest's queries do.
 */
export class BatchedReads<V> {
  readonly #read: (group: string, items: readonly string[], asOf: number) => Promise<ReadonlyMap<string, V>>;
  readonly #maxItems: number;
  /** The batch gathering for each group. */
  readonly #gathering = new Map<string, Batch<V>>();
  /** How many of each group's batches are on their way. */
  readonly #sent = new Map<string, number>();

  constructor(
    read: (group: string, items: readonly string[], asOf: number) => Promise<ReadonlyMap<string, V>>,
    maxItems: number,
  ) {
    this.#read = read;
    this.#maxItems = maxItems;
  }

  /** The group's item, or undefined when the query finds none. */
  get(group: string, item: string, asOf = 0): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      let batch = this.#gathering.get(group);
      if (!batch) {
        const gathered: Batch<V> = { items: new Map(), asOf };
        batch = gathered;
        this.#gathering.set(group, gathered);
        // With a batch of the group on its way, this one goes when that is answered.
        if (!this.#sent.has(group)) queueMicrotask(() => this.#send(group, gathered));
      }
      if (asOf > batch.asOf) batch.asOf = asOf;
      const waiting = batch.items.get(item);
      if (waiting) waiting.push({ resolve, reject });
      else batch.items.set(item, [{ resolve, reject }]);
      // A full batch goes now; the next read of the group starts another.
      if (batch.items.size >= this.#maxItems) this.#send(group, batch);
    });
  }

  #send(group: string, batch: Batch<V>): void {
    // Sent already, when it filled up before its microtask ran.
    if (this.#gathering.get(group) !== batch) return;
    this.#gathering.delete(group);
    this.#sent.set(group, (this.#sent.get(group) ?? 0) + 1);
    const answered = () => {
      const left = (this.#sent.get(group) ?? 1) - 1;
      if (left > 0) this.#sent.set(group, left);
      else this.#sent.delete(group);
      const next = this.#gathering.get(group);
      if (next && left === 0) this.#send(group, next);
    };
    this.#answer(group, batch, () => {
      // One item the database refuses must not fail the reads of the others: each is asked alone.
      for (const [item, waiting] of batch.items)
        void this.#answer(group, { items: new Map([[item, waiting]]), asOf: batch.asOf });
    }).then(answered);
  }

  /** Settles once the batch's query is answered (its reads then hold their answers, or retry alone). */
  #answer(group: string, batch: Batch<V>, onFailure?: () => void): Promise<void> {
    return this.#read(group, [...batch.items.keys()], batch.asOf).then(
      (found) => {
        for (const [item, waiting] of batch.items) for (const read of waiting) read.resolve(found.get(item));
      },
      (error: unknown) => {
        if (onFailure && batch.items.size > 1) return onFailure();
        for (const waiting of batch.items.values()) for (const read of waiting) read.reject(error);
      },
    );
  }
}
