import type { RealServer } from "@payspec/third-party";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutBodyLength } from "../../src/checks/expectations.js";
import { type CheckResult, parseOptions, runVerification, type VerificationReport } from "../../src/index.js";
import { reasonOf } from "../../src/reporters/console-reporter.js";
import { kindOf, tally, untriaged } from "./real-server-triage.js";

/*
 * The verifier on real open-source servers nobody here wrote, each installed from the npm registry
 * and checked against the spec its own authors publish (issue: the verifier on real APIs):
 * - every failure of a full run is a triaged true positive (support/real-server-triage.ts);
 * - --read-only leaves the server's data as it was (a database dump, the stubs, the list);
 * - each failing check of the read-only run (three of each kind in each family of checks), rerun alone
 *   with its printed --only line, fails the same way.
 * One test file per server (test/real-servers/), so the slow ones run beside the rest of the suite.
 */

const failing = (report: VerificationReport) => report.results.filter((r) => r.status === "failed");

/**
 * The failures to rerun alone: at most three of each kind in each family of checks (`positive`,
 * `negative`, `auth`…), so every kind of failure of every family is rerun without rerunning dozens
 * alike (ARA's 46, rerun each, took 278 s of a loaded CI machine's time).
 */
function rerunSample(failures: readonly CheckResult[]): CheckResult[] {
  const taken = new Map<string, number>();
  return failures.filter((result) => {
    const group = `${result.id.split(".")[0]} ${kindOf(result)}`;
    const count = taken.get(group) ?? 0;
    taken.set(group, count + 1);
    return count < 3;
  });
}
/**
 * A failure as a rerun must reproduce it: the same reason, but for ids and times the server makes up
 * per answer, and the length of an error page it could not be read from (see withoutBodyLength).
 */
const sameFailure = (result: CheckResult) =>
  withoutBodyLength(reasonOf(result))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>");

/** Every failure is a triaged kind; the message names the ones that are not, as CI shows only a failure's first lines. */
function expectAllTriaged(report: VerificationReport): void {
  const left = untriaged(report.results);
  expect(left, `untriaged: ${left.join(" | ")}`).toEqual([]);
}

export interface RealServerSuiteOptions {
  /**
   * A second full run with --keep-created, checking that what stays is what it lists. The slowest
   * servers (Unleash, ARA: each full run takes a loaded CI machine minutes) run the cleaned run only.
   */
  readonly keepCreatedRun?: boolean;
}

export function realServerSuite(
  name: string,
  start: () => Promise<RealServer>,
  { keepCreatedRun = true }: RealServerSuiteOptions = {},
): void {
  describe(name, () => {
    let server: RealServer;
    const args = (...more: string[]) => [
      ...["--spec", server.specFile, "--target", server.url, "--base-path", "/", "--seed", "1"],
      ...server.verifyArgs,
      ...more,
    ];
    const verify = (more: string[]) => runVerification(parseOptions(args(...more)));

    beforeAll(async () => {
      server = await start();
    }, 600_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("leaves the server's data as it was with --read-only, and its failures rerun alone the same way", async () => {
      const before = await server.state();
      const report = await verify(["--read-only"]);
      expect(await server.state()).toBe(before);
      expect(report.counts.passed).toBeGreaterThan(0);
      expectAllTriaged(report);
      console.info(
        `${server.release} --read-only: ${JSON.stringify(report.counts)} ${JSON.stringify(tally(report.results))}`,
      );
      for (const result of rerunSample(failing(report))) {
        // The printed rerun line's check: itself, or for a finding about the whole run the check that made the request.
        const only = /--only '?([^' ]+)'?/.exec(result.violations[0]?.rerun ?? "")?.[1] ?? result.id;
        let again = (await verify(["--read-only", "--only", only])).results.find((r) => r.id === result.id);
        // The run may have used up a rate limit (Unleash's search allows a few a minute): then wait it out.
        if (again?.status === "skipped" && again.note?.includes("429"))
          again = (await verify(["--read-only", "--retry-after-max", "90", "--only", only])).results.find(
            (r) => r.id === result.id,
          );
        expect(again && sameFailure(again), result.id).toBe(sameFailure(result));
      }
    }, 480_000);

    it("fails a full run only for triaged true positives, finds the lists as they were after it, and with --keep-created as they were plus what it lists", async () => {
      const before = await server.records();
      const report = await verify([]);
      const after = await server.records();
      // It changed and deleted nothing it did not create, and deleted what it created.
      expect(before.filter((record) => !after.includes(record))).toEqual([]);
      expect(after.filter((record) => !before.includes(record))).toEqual([]);
      expect(report.counts.passed).toBeGreaterThan(0);
      expectAllTriaged(report);
      const left = report.cleanup?.left ?? [];
      console.info(
        `${server.release} full run: ${JSON.stringify(report.counts)} in ${(report.durationMs / 1000).toFixed(1)} s ${JSON.stringify(tally(report.results))}; deleted ${report.cleanup?.deleted} records it created, left ${left.length} (${[...new Set(left.map((l) => `${l.madeBy.replace(/\d+/g, "N")}: ${l.why}`))].join("; ")})`,
      );
      // --keep-created: what stays is what the report lists as kept.
      if (!keepCreatedRun) return;
      const kept = await verify(["--keep-created"]);
      const added = (await server.records()).filter((record) => !after.includes(record));
      expect(kept.cleanup?.kept).toBe(true);
      expect(added.length, `not listed: ${added.slice(0, 3).join(" | ")}`).toBeLessThanOrEqual(
        kept.cleanup?.left.length ?? 0,
      );
    }, 480_000);
  });
}
