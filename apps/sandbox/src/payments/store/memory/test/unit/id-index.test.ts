import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdIndex } from "../../id-index.js";

interface Item {
  readonly id: string;
  readonly n: number;
}

describe("the id index", () => {
  it("finds what a Map finds, for any ids added and any text looked up, across the table's growth", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: "binary", maxLength: 24 }), { minLength: 0, maxLength: 3_000 }),
        fc.array(fc.string({ unit: "binary", maxLength: 24 }), { maxLength: 50 }),
        (ids, strangers) => {
          const items: Item[] = [];
          const index = new IdIndex(items);
          const model = new Map<string, Item>();
          for (const id of ids) {
            const item = { id, n: items.length };
            items.push(item);
            index.add(items.length - 1);
            model.set(id, item);
          }
          for (const id of [...ids, ...strangers]) expect(index.get(id)).toBe(model.get(id));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps 200,000 payment-like ids apart, hash collisions and all, and misses what it never held", () => {
    const items: Item[] = [];
    const index = new IdIndex(items);
    // Ids that differ in one character only, as close as ids come.
    for (let n = 0; n < 200_000; n++) {
      items.push({ id: `pay_${n.toString(36).padStart(16, "0")}`, n });
      index.add(n);
    }
    for (let n = 0; n < 200_000; n += 997) expect(index.get(`pay_${n.toString(36).padStart(16, "0")}`)?.n).toBe(n);
    expect(index.get(`pay_${(200_000).toString(36).padStart(16, "0")}`)).toBeUndefined();
    expect(index.get("")).toBeUndefined();
  });
});
