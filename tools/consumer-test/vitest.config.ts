import { defineConfig } from "vitest/config";

// Installing from the registry and starting real processes on two Node versions takes minutes, not seconds.
export default defineConfig({ test: { testTimeout: 180_000, hookTimeout: 900_000 } });
