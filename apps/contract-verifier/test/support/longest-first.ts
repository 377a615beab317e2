import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, longest first, as measured in the check (seconds of a loaded 2-core
 * machine): Unleash 329, verify-providers 279, ARA 170, catches-faults 146. vitest orders by the last
 * run's times, but a fresh clone has none, and then it runs the largest files first: the real servers'
 * four-line files came last, and Unleash alone ran for the last four minutes of the suite.
 */
const LONGEST = [
  "test/real-servers/unleash.test.ts",
  "test/verify-providers.test.ts",
  "test/real-servers/ara.test.ts",
  "test/catches-faults.test.ts",
];

const rank = (file: TestSpecification) => {
  const index = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
  return index === -1 ? LONGEST.length : index;
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
