import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One pact file per consumer-provider pair: its interactions must be written one test file at a time.
    fileParallelism: false,
    env: { PACT_DO_NOT_TRACK: "true", SCARF_ANALYTICS: "false" },
  },
});
