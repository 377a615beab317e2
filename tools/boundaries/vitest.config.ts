import { defineConfig } from "vitest/config";

// A bound against a hang: one case runs dependency-cruiser over the sandbox, 34 s of a loaded CI machine.
export default defineConfig({ test: { testTimeout: 120_000 } });
