import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DueQueue } from "../../due-queue.js";

type Step = { push: [number, number] } | { pop: true };

describe("the completion schedule", () => {
  it("gives the earliest countdown first, then the lowest seq, for any pushes and pops (as a sorted list would)", () => {
    const step = fc.oneof(
      // Few distinct times, so that ties (and duplicate entries) are common; times as large as real ones.
      { arbitrary: fc.record({ push: fc.tuple(fc.integer({ min: 0, max: 20 }), fc.nat(50)) }), weight: 3 },
      { arbitrary: fc.constant({ pop: true as const }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(step as fc.Arbitrary<Step>, { maxLength: 3_000 }), (steps) => {
        const queue = new DueQueue();
        const model: [number, number][] = [];
        for (const s of steps) {
          if ("push" in s) {
            const [minute, seq] = s.push;
            const countdownFrom = 1_764_000_000_000 + minute * 60_000;
            queue.push(countdownFrom, seq);
            model.push([countdownFrom, seq]);
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          } else {
            queue.pop();
            model.shift();
          }
          expect(queue.size).toBe(model.length);
          expect(queue.firstCountdownFrom()).toBe(model[0]?.[0] ?? Number.POSITIVE_INFINITY);
          expect(queue.firstSeq()).toBe(model[0]?.[1] ?? 0);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("visits exactly the entries due by a time, for any entries and any time", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.nat(5_000)), { maxLength: 2_000 }),
        fc.integer({ min: -1, max: 101 }),
        (entries, by) => {
          const queue = new DueQueue();
          for (const [countdownFrom, seq] of entries) queue.push(countdownFrom, seq);
          const visited: string[] = [];
          queue.forEachDueBy(by, (countdownFrom, seq) => visited.push(`${countdownFrom}/${seq}`));
          const expected = entries.filter(([c]) => c <= by).map(([c, s]) => `${c}/${s}`);
          expect(visited.sort()).toEqual(expected.sort());
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps its order past the arrays' first growth", () => {
    const queue = new DueQueue();
    // 5,000 entries pushed latest first: every push climbs to the top.
    for (let seq = 5_000; seq >= 1; seq--) queue.push(seq * 1_000, seq);
    const taken: number[] = [];
    while (queue.size > 0) {
      taken.push(queue.firstSeq());
      queue.pop();
    }
    expect(taken).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
    queue.pop();
    expect(queue.firstCountdownFrom()).toBe(Number.POSITIVE_INFINITY);
  });
});
