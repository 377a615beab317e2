import { defineConfig } from "vitest/config";

/**
 * A feature's own tests sit in its folder (`src/<feature>/test/`, with `unit/` and `postgres/` as
 * below); `test/` holds what crosses features (the browser files, hardening, the store contract,
 * several instances on one database) and the support every test uses.
 * Three projects:
 * - `unit`: what touches no store of the run (parsers, formats, queues, the CLIs' refusals at start),
 *   run once.
 * - `memory` and `postgres`: every other test runs twice, on the in-memory store and on PostgreSQL
 *   (a real server started for the run, a database of its own per sandbox). Tests of PostgreSQL alone
 *   (several instances on one database, SIGKILL and restart, what the tables hold) live in
 *   a `postgres/` folder.
 * The browser files (`dashboard/`) run once, on PostgreSQL, the store a team runs: what Chromium adds
 * (forms, scripts, layout) no store changes, and the pages' store calls run on both stores in the HTTP
 * tests. Run twice they were 60% of the suite's time and timed out on a loaded machine. Every page at
 * two widths in two languages (`dashboard/every-page`) checks each combination once: the phone in
 * Turkish on PostgreSQL, the rest on memory; axe runs at each width once and in each language once.
 * Files share their worker's modules (no isolation): every test starts its own sandbox and stores, and
 * importing the sandbox again for each of ~90 file runs took a quarter of the suite's time.
 */
export default defineConfig({
  test: {
    // Guards against a hang, not measures of speed: with three suites at once on two cores and another
    // process busy on one of them, a case runs up to four times slower than alone (the slowest, an
    // export taken over after a SIGKILL, takes 20 s alone).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    isolate: false,
    // Two files at a time, whatever the machine (vitest's default on 2 cores is one): most of a file's
    // time is waiting on Chromium, PostgreSQL and sockets, not on a core.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts", "src/**/test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "memory",
          include: ["test/*.test.ts", "src/**/test/*.test.ts", "test/dashboard/every-page.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          exclude: ["test/unit/**", "src/**/test/unit/**", "**/node_modules/**"],
          globalSetup: ["test/support/postgres-server.ts"],
        },
      },
    ],
  },
});
