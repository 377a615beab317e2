import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/support/longest-first.js";

/**
 * Three files at a time, whatever the machine: most of this suite waits on servers (Unleash's scheduled
 * jobs, WireMock's JVM, Prism), not on a core, and vitest's default on a 2-core machine is one; Unleash
 * alone takes three minutes, the two largest of the rest two each. Tests that spawn the CLI spawn the
 * built one (`test/support/build-cli.ts` builds it first when a source is newer). Files
 * share their worker's modules (no isolation): each starts the servers it needs and keeps no state in
 * a module, and importing the verifier again for each of them cost a tenth of the run.
 */
export default defineConfig({
  // Timeouts guard against a hang, not speed: Unleash's full run took 87 s here and more in CI.
  test: {
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
    isolate: false,
    globalSetup: ["test/support/build-cli.ts"],
    sequence: { sequencer: LongestFirst },
  },
});
