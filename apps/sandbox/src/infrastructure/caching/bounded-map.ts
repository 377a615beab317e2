/**
 * A map that keeps at most `limit` keys and starts over when a new key would pass that: for what the
 * process works out or reads once per workspace. The workspaces in use are few; the bound only keeps
 * a flood of different keys from growing memory, and what is forgotten is worked out again.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
