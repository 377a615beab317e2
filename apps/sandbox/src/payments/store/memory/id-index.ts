/** Slots at start; the table doubles whenever it would be more than half full. */
const FIRST_CAPACITY = 1024;

/** FNV-1a over the UTF-16 code units: ids are short, and anyone's text may be looked up. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/**
 * A list's items by id: an open-addressing hash table of positions in the list, in typed arrays.
 * For the in-memory store's payments, which a workspace keeps by the hundred thousand: a Map of that
 * many string keys was the costliest part of a create, every entry pointers for the garbage collector
 * to walk and the table rehashed by reading every key again. Here a slot is two numbers, which the
 * collector never looks at, and a rehash reads only the hashes kept beside them. Items are only ever
 * added (a reset starts a new index); ids are unique.
 */
export class IdIndex<T extends { readonly id: string }> {
  readonly #items: readonly T[];
  /** Position in the list + 1; 0 marks an empty slot. */
  #positions = new Int32Array(FIRST_CAPACITY);
  #hashes = new Int32Array(FIRST_CAPACITY);
  #size = 0;

  /** `items`: the list the positions refer to, which the caller appends to. */
  constructor(items: readonly T[]) {
    this.#items = items;
  }

  /** Indexes the item at `position` of the list. */
  add(position: number): void {
    const item = this.#items[position] as T;
    if ((this.#size + 1) * 2 > this.#positions.length) this.#grow();
    this.#place(hashOf(item.id), position + 1);
    this.#size++;
  }

  get(id: string): T | undefined {
    const hash = hashOf(id);
    const mask = this.#positions.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const position = this.#positions[slot] as number;
      if (position === 0) return undefined;
      if (this.#hashes[slot] === hash) {
        const item = this.#items[position - 1] as T;
        if (item.id === id) return item;
      }
    }
  }

  #place(hash: number, position: number): void {
    const mask = this.#positions.length - 1;
    let slot = hash & mask;
    while (this.#positions[slot] !== 0) slot = (slot + 1) & mask;
    this.#positions[slot] = position;
    this.#hashes[slot] = hash;
  }

  #grow(): void {
    const positions = this.#positions;
    const hashes = this.#hashes;
    this.#positions = new Int32Array(positions.length * 2);
    this.#hashes = new Int32Array(positions.length * 2);
    for (let slot = 0; slot < positions.length; slot++) {
      const position = positions[slot] as number;
      if (position !== 0) this.#place(hashes[slot] as number, position);
    }
  }
}
