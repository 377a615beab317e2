import { defineConfig } from "vitest/config";

/**
 * The images are built once for the run (global setup: the bases if this machine has not got them,
 * then deploy/build-images.sh); every file uses them. Files run one at a time: each starts containers,
 * a compose stack or several sandboxes, and two cores are shared with the other suites.
 */
export default defineConfig({
  test: {
    testTimeout: 300_000,
    hookTimeout: 900_000,
    maxWorkers: 1,
    globalSetup: ["test/support/images-setup.ts"],
  },
});
