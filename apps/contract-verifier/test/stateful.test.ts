import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseOptions, runVerification } from "../src/index.js";

const suite = proxiedDuringSuite(() => startSandbox(), { beforeAll, afterAll, beforeEach });

const stateful = (profile: string, seed = 3, runs = 40) =>
  runVerification(
    parseOptions([
      "--target",
      suite.proxy.url,
      "--stateful",
      "--profile",
      profile,
      "--seed",
      String(seed),
      "--runs",
      String(runs),
    ]),
  );

const modelResult = (report: Awaited<ReturnType<typeof stateful>>) =>
  report.results.find((r) => r.id === "stateful.model");

describe("--stateful: model-based sequences that shrink", () => {
  it.each(["behaviour", "sandbox"])("a faithful provider agrees with the model (%s profile)", async (profile) => {
    const result = modelResult(await stateful(profile));
    expect(result?.violations).toEqual([]);
    expect(result?.status).toBe("passed");
    expect(result?.requests).toBeGreaterThan(100);
  });

  it("a second cancel that succeeds: shrunk to a few numbered requests, with the seed", async () => {
    suite.proxy.inject({
      when: (r) => r.method === "DELETE",
      fault: {
        kind: "replace",
        replace: (answer, request) =>
          answer.status === 200
            ? answer
            : { status: 200, body: { ...answer.body, id: request.url.split("/").pop(), status: "cancelled" } },
      },
    });
    const report = await stateful("behaviour", 11);
    const result = modelResult(report);
    expect(result?.status).toBe("failed");
    const actual = result?.violations[0]?.actual ?? "";
    expect(actual).toContain("(seed 11 replays them)");
    // Shrunk: a create, the cancel, and what showed the cancel did nothing.
    const steps = actual.split("\n").filter((line) => /^\s+\d+\. /.test(line));
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.length).toBeLessThanOrEqual(4);
    expect(steps[0]).toMatch(/^\s+1\. create a (payment|batch)/);
    expect(actual).toMatch(/DELETE \/v1\/payments\/pay_\w+/);
    expect(result?.violations[0]?.rerun).toMatch(
      /^--target http:\/\/127\.0\.0\.1:\d+ --api both --profile behaviour --stateful --runs \d+ --max-commands \d+ --seed 11 --only stateful\.model$/,
    );
  });

  it("a repeated referenceId charged again: the card payment step breaks the model", async () => {
    suite.proxy.inject({
      when: (r) => r.method === "POST" && r.url === "/api/v1/payments/card",
      fault: {
        kind: "rewrite",
        rewrite: (body) =>
          body.response ? { ...body, response: { ...body.response, id: crypto.randomUUID() } } : body,
      },
    });
    const result = modelResult(await stateful("behaviour", 5, 80));
    expect(result?.status).toBe("failed");
    expect(result?.violations[0]?.actual).toMatch(
      /pay by card again .*\n.*\n\s+expected 200 with the original payment/,
    );
  });

  it("approving a payment that is not waiting for an approver breaks the model (sandbox profile)", async () => {
    suite.proxy.inject({
      when: (r) => r.method === "POST" && r.url.endsWith("/approve"),
      fault: {
        kind: "replace",
        replace: (answer, request) =>
          answer.status === 200 ? answer : { status: 200, body: { id: request.url.split("/")[3], status: "approved" } },
      },
    });
    const result = modelResult(await stateful("sandbox", 7, 80));
    expect(result?.status).toBe("failed");
    expect(result?.violations[0]?.actual).toMatch(/approve payment #\d+: POST \/_sandbox\/payments\/pay_\w+\/approve/);
    expect(result?.violations[0]?.actual).toContain("cannot be approved");
  });

  it("a statement import that reconciles a payment not yet settled breaks the model (sandbox profile)", async () => {
    suite.proxy.inject({
      when: (r) => r.method === "POST" && r.url === "/_sandbox/reconciliations",
      fault: {
        kind: "rewrite",
        rewrite: (body) => ({
          ...body,
          lines: (body.lines as { outcome: string }[]).map((line) =>
            line.outcome === "not_settled" ? { ...line, outcome: "matched" } : line,
          ),
        }),
      },
    });
    const result = modelResult(await stateful("sandbox", 11, 80));
    expect(result?.status).toBe("failed");
    expect(result?.violations[0]?.actual).toMatch(/import a statement naming payment #\d+/);
    expect(result?.violations[0]?.actual).toContain("not_settled");
  });
});
