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
 * SharedReads for a yes-or-no question asked as of a moment, whose answer can only turn from no to
 * yes as the moment moves on ("is anything due by now?"). Reads waiting for one key's next query share
 * it, asked as of the latest of their moments: a no then holds for each of them, and a yes sends each
 * caller to work that looks again as of its own moment, so a shared yes costs a look, never a wrong
 * answer.
 */
export class SharedReadsAsOfLatest {
  readonly #latest = new Map<string, number>();
  readonly #reads: SharedReads<boolean>;

  constructor(read: (key: string, asOf: number) => Promise<boolean>) {
    this.#reads = new SharedReads((key) => {
      // Set by every read that asked since the last query went: the query goes as of the latest.
      const asOf = this.#latest.get(key) as number;
      this.#latest.delete(key);
      return read(key, asOf);
    });
  }

  get(key: string, asOf: number): Promise<boolean> {
    const latest = this.#latest.get(key);
    if (latest === undefined || asOf > latest) this.#latest.set(key, asOf);
    return this.#reads.get(key);
  }
}

interface BatchWaiter<V> {
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Reads of items of one group (a workspace's payments, by id), asked in the same run of the event
 * loop's microtasks, go to PostgreSQL in one query (as a DataLoader batches them): the GETs that a
 * turn read resume together once their workspace's shared probe answers, and cost one round trip
 * instead of one each. A batch goes once every read of that run has asked, so a read is answered only
 * by a query sent after it asked, and sees every write committed before it asked.
 */
export class BatchedReads<V> {
  readonly #read: (group: string, items: readonly string[]) => Promise<ReadonlyMap<string, V>>;
  readonly #maxItems: number;
  /** The batch gathering for each group: its items, each with the reads waiting for it. */
  readonly #gathering = new Map<string, Map<string, BatchWaiter<V>[]>>();

  constructor(read: (group: string, items: readonly string[]) => Promise<ReadonlyMap<string, V>>, maxItems: number) {
    this.#read = read;
    this.#maxItems = maxItems;
  }

  /** The group's item, or undefined when the query finds none. */
  get(group: string, item: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      let batch = this.#gathering.get(group);
      if (!batch) {
        batch = new Map();
        this.#gathering.set(group, batch);
        const gathered = batch;
        queueMicrotask(() => this.#send(group, gathered));
      }
      const waiting = batch.get(item);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(item, [{ resolve, reject }]);
      // A full batch goes now; the next read of the group starts another.
      if (batch.size >= this.#maxItems) this.#send(group, batch);
    });
  }

  #send(group: string, batch: Map<string, BatchWaiter<V>[]>): void {
    // Sent already, when it filled up before its microtask ran.
    if (this.#gathering.get(group) !== batch) return;
    this.#gathering.delete(group);
    this.#answer(group, batch, () => {
      // One item the database refuses must not fail the reads of the others: each is asked alone.
      for (const [item, waiting] of batch) this.#answer(group, new Map([[item, waiting]]));
    });
  }

  #answer(group: string, batch: Map<string, BatchWaiter<V>[]>, onFailure?: () => void): void {
    this.#read(group, [...batch.keys()]).then(
      (found) => {
        for (const [item, waiting] of batch) for (const read of waiting) read.resolve(found.get(item));
      },
      (error: unknown) => {
        if (onFailure && batch.size > 1) return onFailure();
        for (const waiting of batch.values()) for (const read of waiting) read.reject(error);
      },
    );
  }
}
