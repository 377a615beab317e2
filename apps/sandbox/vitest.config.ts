import { defineConfig } from "vitest/config";

/**
 * Every test runs twice: on the in-memory store and on PostgreSQL (a real server started for the run,
 * a database of its own per sandbox). Tests of PostgreSQL alone (several instances on one database,
 * SIGKILL and restart, what the tables hold) live in test/postgres/.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "memory", exclude: ["test/postgres/**", "**/node_modules/**"] } },
      { extends: true, test: { name: "postgres", globalSetup: ["test/support/postgres-server.ts"] } },
    ],
  },
});
