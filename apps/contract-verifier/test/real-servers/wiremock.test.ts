import { type RealServer, startWireMock } from "@payspec/third-party";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseOptions, runVerification } from "../../src/index.js";
import { SERVER_DOWN_CHECK } from "../../src/server-down-result.js";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("WireMock (its admin API)", startWireMock);

/*
 * A server that a request brings down, for real: WireMock's own POST /__admin/shutdown stops the JVM.
 * The run names that request, with its curl and rerun lines, and reports the checks after it as not
 * run, instead of a failure per "connection refused".
 */
describe("WireMock brought down by a request", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startWireMock();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("is one finding naming POST /__admin/shutdown, and the run stops there", async () => {
    const report = await runVerification(
      parseOptions([
        ...["--spec", server.specFile, "--target", server.url, "--base-path", "/", "--seed", "1"],
        // WireMock stops its JVM a moment after answering; paced, the next request meets it stopped.
        ...["--include-operations", "shutdownServer,getVersion,getHealth", "--rate-limit", "4/s"],
      ]),
    );
    const down = report.results.find((r) => r.id === SERVER_DOWN_CHECK);
    expect(down?.status).toBe("failed");
    // The shutdown is named with its curl and rerun lines; a request after it that the JVM reset while
    // stopping may stand before it (the run cannot tell which of the two brought the server down).
    const named = down?.violations.map((v) => v.operation) ?? [];
    expect(named.slice(0, 2)).toContain("POST /__admin/shutdown");
    const shutdown = down?.violations.find((v) => v.operation === "POST /__admin/shutdown");
    expect(shutdown?.reproduce).toContain("-X POST");
    expect(shutdown?.rerun).toContain("--only positive.shutdownServer");
    const after = report.results.slice(report.results.findIndex((r) => r.id === SERVER_DOWN_CHECK) + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(
      after.every((r) => r.note?.startsWith("not run: the server stopped answering") || r.id.startsWith("sensitive.")),
    ).toBe(true);
    expect(report.results.filter((r) => r.status === "failed").map((r) => r.id)).toContain(SERVER_DOWN_CHECK);
    expect(
      report.results.some((r) =>
        r.violations.some((v) => v.actual.includes("ECONNREFUSED") && r.id !== SERVER_DOWN_CHECK),
      ),
    ).toBe(false);
  });
});
