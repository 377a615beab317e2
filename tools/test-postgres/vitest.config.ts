import { defineConfig } from "vitest/config";

// Bounds against a hang: starting and stopping a cluster took 12.5 s of a loaded CI machine.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
