import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEYS, type RunningSandbox, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pactsDir, usersPactsDir } from "../../src/index.js";

// The verifier's own CLI file: in a fresh clone pnpm links no bin for a workspace package not yet built.
const cli = join(dirname(createRequire(import.meta.url).resolve("@payspec/contract-verifier")), "cli.mjs");
const execute = promisify(execFile);
const run = (_bin: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}) =>
  execute(process.execPath, [cli, ...args], options);
const verify = "payspec-verify";
let sandbox: RunningSandbox;
const scratch = mkdtempSync(join(tmpdir(), "users-pact-report-"));

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

interface Judged {
  readonly title: string;
  readonly status: string;
  readonly note?: string;
  readonly violations: { expected: string; actual: string; reproduce?: string }[];
}

/** The verifier as a user runs it, on the webshop's pact: its exit code, its lines, its JSON report. */
async function verdicts(...args: string[]): Promise<{ code: number; stdout: string; results: Map<string, Judged> }> {
  const report = join(scratch, `${args.length}.json`);
  const outcome = await run(verify, ["pact", usersPactsDir, "--json", report, ...args], {
    env: { ...process.env, PACT_DO_NOT_TRACK: "true", SCARF_ANALYTICS: "false" },
  }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
  );
  const results = (JSON.parse(readFileSync(report, "utf8")) as { results: Judged[] }).results;
  return { ...outcome, results: new Map(results.map((r) => [r.title, r])) };
}

/** Each interaction of the webshop's pact and its verdict against the sandbox. */
const VERDICTS = {
  "a new payment": "passed",
  "a new payment of nothing": "failed",
  "a request for a payment that is gone": "failed",
  "a request for a payment with its risk score": "failed",
  "a request for a pending payment": "passed",
  "a request for a refunded payment": "error",
  "a request for the accounts": "passed",
  "a request for the accounts without an API key": "passed",
};
const statuses = (results: Map<string, Judged>) =>
  Object.fromEntries([...results].map(([title, judged]) => [title, judged.status]));
const problems = (judged: Judged | undefined) => judged?.violations.map((v) => `${v.expected} | ${v.actual}`) ?? [];

describe("payspec-verify pact on a pact nobody here wrote (plain pact-js and fetch)", () => {
  it("against the spec alone: each interaction judged, exactly", async () => {
    const { code, stdout, results } = await verdicts();
    expect(code).toBe(1);
    // Without a provider, a state is not set up: the interaction itself agrees with the spec.
    expect(statuses(results)).toEqual({ ...VERDICTS, "a request for a refunded payment": "passed" });
    expect(problems(results.get("a new payment of nothing"))).toEqual([
      "an interaction the spec allows | request body /amount must be >= 1 (minimum)",
    ]);
    expect(problems(results.get("a request for a payment that is gone"))).toEqual([
      "an interaction the spec allows | getPayment (GET /v1/payments/{id}): status 410 is not declared (declared: 200, 400, 401, 404, 500, 503)",
    ]);
    expect(problems(results.get("a request for a payment with its risk score"))).toEqual([
      "an interaction the spec allows | response body field $.risk_score is not in the spec",
    ]);
    // One line per interaction.
    expect(stdout.split("\n").filter((line) => /^[✓✗!] pact\.webshop\.\d /.test(line))).toHaveLength(8);
  });

  it("against the sandbox: states set up, requests replayed, answers matched by Pact's rules", async () => {
    const { code, stdout, results } = await verdicts("--target", sandbox.url);
    expect(code).toBe(1);
    expect(statuses(results)).toEqual(VERDICTS);
    expect(problems(results.get("a new payment of nothing"))).toContain("expected status 201 | 400");
    expect(problems(results.get("a request for a payment that is gone"))).toContain("expected status 410 | 404");
    expect(problems(results.get("a request for a payment with its risk score"))).toContain(
      "body $.risk_score: expected a field the answer does not have | not that",
    );
    const unknown = results.get("a request for a refunded payment");
    expect(unknown?.note).toContain('unknown provider state "a refunded payment exists"');
    // The error names the catalogue.
    expect(unknown?.note).toContain('"a pending payment exists"');
    // Each provider failure carries a curl line, credentials as variables.
    const replayed = results.get("a request for a payment that is gone")?.violations.find((v) => v.reproduce);
    expect(replayed?.reproduce).toContain('-H "Authorization: Bearer $PAYSPEC_VERIFY_API_KEY"');
    expect(stdout).not.toContain("sk_sandbox_verify");
  });

  it("agrees with pact-js's own verifier on payspec's pacts: every interaction it passes passes here", async () => {
    const outcome = await run(verify, ["pact", pactsDir, "--target", sandbox.url, "--api-key", DEMO_API_KEYS[0]]).catch(
      (failed: { code: number; stdout: string }) => failed,
    );
    const lines = outcome.stdout.split("\n").filter((line) => /^[✓✗!] pact\./.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(15);
    expect(lines.filter((line) => !line.startsWith("✓"))).toEqual([]);
  });

  it("exits 2 with a sentence, no stack trace, for a file that is not a pact", async () => {
    const outcome = await run(verify, ["pact", join(usersPactsDir, "..", "package.json")]).catch(
      (failed: { code: number; stderr: string }) => failed,
    );
    expect((outcome as { code: number }).code).toBe(2);
    expect((outcome as { stderr: string }).stderr).toContain('has no "interactions" list');
    expect((outcome as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });
});
