import { expect, it } from "vitest";
import { seededRandom } from "../src/index.js";

const draw = (seed: number, n: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => random());
};

it("gives the same sequence for the same seed and a different one for another seed", () => {
  expect(draw(42, 20)).toEqual(draw(42, 20));
  expect(draw(42, 20)).not.toEqual(draw(43, 20));
});

it("draws in [0, 1), spread over the whole range", () => {
  const values = draw(7, 10_000);
  expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  // Ten equal buckets each get a tenth, give or take: a generator stuck in one corner fails this.
  const buckets = Array.from({ length: 10 }, (_, b) => values.filter((v) => Math.floor(v * 10) === b).length);
  for (const count of buckets) expect(count).toBeGreaterThan(850);
});
