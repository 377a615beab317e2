/** Entries at start; the arrays double when full. */
const FIRST_CAPACITY = 1024;

/** Whether entry (c1, s1) comes before (c2, s2): earlier countdown first, then lower seq. */
const before = (c1: number, s1: number, c2: number, s2: number) => c1 < c2 || (c1 === c2 && s1 < s2);

/**
 * The in-memory store's completion schedule: a binary min-heap on (countdownFrom, seq), so the next
 * payment to become due is always on top, whether its countdown started at creation or at approval.
 * Entries go stale when a payment moves on; the store checks each one it takes.
 *
 * The entries are numbers in two typed arrays, not an object each: a workspace schedules every
 * payment it is sent, and an object per entry (with its boxed time) was more for the garbage
 * collector to copy and walk on every create.
 */
export class DueQueue {
  #countdowns = new Float64Array(FIRST_CAPACITY);
  #seqs = new Float64Array(FIRST_CAPACITY);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The first entry's countdown start; +Infinity when the schedule is empty. */
  firstCountdownFrom(): number {
    return this.#size === 0 ? Number.POSITIVE_INFINITY : (this.#countdowns[0] as number);
  }

  /** The first entry's payment seq; 0 when the schedule is empty. */
  firstSeq(): number {
    return this.#size === 0 ? 0 : (this.#seqs[0] as number);
  }

  push(countdownFrom: number, seq: number): void {
    if (this.#size === this.#countdowns.length) this.#grow();
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(countdownFrom, seq, this.#countdowns[parent] as number, this.#seqs[parent] as number)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#countdowns[i] = countdownFrom;
    this.#seqs[i] = seq;
  }

  /**
   * Calls `visit` with each entry whose countdown started at or before `by` (stale ones too), walking
   * only the heap's part above later entries: what a backlog's count reads.
   */
  forEachDueBy(by: number, visit: (countdownFrom: number, seq: number) => void): void {
    const stack = this.#size > 0 ? [0] : [];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const countdownFrom = this.#countdowns[i] as number;
      if (countdownFrom > by) continue;
      visit(countdownFrom, this.#seqs[i] as number);
      const left = 2 * i + 1;
      if (left < this.#size) stack.push(left);
      if (left + 1 < this.#size) stack.push(left + 1);
    }
  }

  /** Removes the first entry (nothing when empty). */
  pop(): void {
    if (this.#size === 0) return;
    const last = --this.#size;
    const countdownFrom = this.#countdowns[last] as number;
    const seq = this.#seqs[last] as number;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= last) break;
      const right = left + 1;
      const child = right < last && this.#precedes(right, left) ? right : left;
      if (!before(this.#countdowns[child] as number, this.#seqs[child] as number, countdownFrom, seq)) break;
      this.#move(child, i);
      i = child;
    }
    this.#countdowns[i] = countdownFrom;
    this.#seqs[i] = seq;
  }

  /** Whether the entry at `a` comes before the one at `b`. */
  #precedes(a: number, b: number): boolean {
    return before(
      this.#countdowns[a] as number,
      this.#seqs[a] as number,
      this.#countdowns[b] as number,
      this.#seqs[b] as number,
    );
  }

  #move(from: number, to: number): void {
    this.#countdowns[to] = this.#countdowns[from] as number;
    this.#seqs[to] = this.#seqs[from] as number;
  }

  #grow(): void {
    const countdowns = new Float64Array(this.#countdowns.length * 2);
    const seqs = new Float64Array(this.#seqs.length * 2);
    countdowns.set(this.#countdowns);
    seqs.set(this.#seqs);
    this.#countdowns = countdowns;
    this.#seqs = seqs;
  }
}
