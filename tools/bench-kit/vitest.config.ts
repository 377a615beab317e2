import { defineConfig } from "vitest/config";

// Timeouts guard against a hang, not speed: compareHttp's rounds waited past 30 s on a CI machine
// whose cores were busy with the other suites.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 60_000 } });
