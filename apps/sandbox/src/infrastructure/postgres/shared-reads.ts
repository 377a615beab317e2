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
    if (current === undefined) return this.#send(key, reads);
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
