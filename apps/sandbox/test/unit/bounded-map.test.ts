import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/infrastructure/caching/bounded-map.js";

describe("BoundedMap", () => {
  it("starts over when a new key would pass its limit, and keeps what it has when a known key changes", () => {
    const map = new BoundedMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    map.set("b", 20);
    expect([...map]).toEqual([
      ["a", 1],
      ["b", 20],
      ["c", 3],
    ]);
    map.set("d", 4);
    expect([...map]).toEqual([["d", 4]]);
  });
});
