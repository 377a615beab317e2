/** One scheduled completion: the payment (by seq) and the countdown start it was scheduled with. */
export interface DueEntry {
  readonly countdownFrom: number;
  readonly seq: number;
}

const before = (a: DueEntry, b: DueEntry) =>
  a.countdownFrom < b.countdownFrom || (a.countdownFrom === b.countdownFrom && a.seq < b.seq);

/**
 * The in-memory store's completion schedule: a binary min-heap on (countdownFrom, seq), so the next
 * payment to become due is always on top, whether its countdown started at creation or at approval.
 * Entries go stale when a payment moves on; the store checks each one it pops.
 */
export class DueQueue {
  readonly #heap: DueEntry[] = [];

  push(entry: DueEntry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as DueEntry, heap[parent] as DueEntry)) break;
      [heap[i], heap[parent]] = [heap[parent] as DueEntry, heap[i] as DueEntry];
      i = parent;
    }
  }

  peek(): DueEntry | undefined {
    return this.#heap[0];
  }

  pop(): DueEntry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && before(heap[left] as DueEntry, heap[smallest] as DueEntry)) smallest = left;
      if (right < heap.length && before(heap[right] as DueEntry, heap[smallest] as DueEntry)) smallest = right;
      if (smallest === i) return top;
      [heap[i], heap[smallest]] = [heap[smallest] as DueEntry, heap[i] as DueEntry];
      i = smallest;
    }
  }
}
