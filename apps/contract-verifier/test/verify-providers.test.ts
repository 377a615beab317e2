import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type RunningMock, startMock } from "@payspec/mock";
import {
  DEMO_API_KEYS,
  GATEWAY_SCOPE,
  type RunningSandbox,
  seedWorkspace,
  startSandbox,
  VERIFY_API_KEY,
  workspaceScope,
} from "@payspec/sandbox";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { parseOptions, runVerification } from "../src/index.js";
import { CLI } from "./support/built-cli.js";

const run = promisify(execFile);

let sandbox: RunningSandbox;
let mock: RunningMock;

beforeAll(async () => {
  sandbox = await startSandbox();
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
  await sandbox.close();
});

const failures = (report: Awaited<ReturnType<typeof runVerification>>) =>
  report.results.filter((r) => r.status === "failed" || r.status === "error");

/** A clean run of the sandbox: no failure, every check that sent a request timed. */
function expectClean(report: Awaited<ReturnType<typeof runVerification>>): void {
  expect(failures(report)).toEqual([]);
  expect(report.counts.passed).toBeGreaterThan(40);
  for (const result of report.results.filter((r) => r.requests > 0)) expect(result.medianResponseMs).toBeGreaterThan(0);
}

// The sandbox passes both profiles that write: "leaves the data alone" below runs each once on it.
describe("clean runs", () => {
  it("passes against the Prism mock with the schema profile", async () => {
    const report = await runVerification(parseOptions(["--target", mock.url, "--profile", "schema"]));
    expect(failures(report)).toEqual([]);
    expect(report.results.every((r) => r.profile === "schema")).toBe(true);
  });

  it("splits the checks across shards without overlap or loss", async () => {
    const whole = await runVerification(parseOptions(["--target", mock.url, "--api", "gateway"]));
    const first = await runVerification(parseOptions(["--target", mock.url, "--api", "gateway", "--shard", "1/2"]));
    const second = await runVerification(parseOptions(["--target", mock.url, "--api", "gateway", "--shard", "2/2"]));
    // Each shard reads its own responses for card data and credentials, so each reports both rules.
    const rules = ["sensitive.card-data", "sensitive.credentials"];
    for (const shard of [first, second])
      for (const rule of rules) expect(shard.results.some((r) => r.id === rule)).toBe(true);
    const ids = [...first.results, ...second.results]
      .map((r) => r.id)
      .filter((id) => !rules.includes(id))
      .sort();
    expect(ids).toEqual(
      whole.results
        .map((r) => r.id)
        .filter((id) => !rules.includes(id))
        .sort(),
    );
    expect(first.results.length).toBeGreaterThan(0);
    expect(whole.results.every((r) => r.api === "gateway")).toBe(true);
  });
});

describe("the CLI", () => {
  it("exits 1 with the operation, request, expectation and answer of each violation", async () => {
    // A provider that accepts the credentials but answers 404 to reading a payment it just created.
    const forgetful = createServer((request, res) => {
      const created = request.method === "POST";
      const accounts = request.url === "/v1/accounts";
      res.writeHead(created ? 201 : accounts ? 200 : 404, { "content-type": "application/json" });
      res.end(accounts ? "[]" : created ? "{}" : '{"code":"not_found","message":"gone"}');
    });
    await new Promise<void>((resolve) => forgetful.listen(0, "127.0.0.1", resolve));
    try {
      const error = await run(process.execPath, [
        CLI,
        "--target",
        `http://127.0.0.1:${(forgetful.address() as AddressInfo).port}`,
        "--api",
        "payments",
        "--only",
        "positive.getPayment",
      ]).catch((e) => e);
      expect(error.code).toBe(1);
      expect(error.stdout).toContain("positive.getPayment");
      expect(error.stdout).toMatch(/request: {2}GET \/v1\/payments\//);
      expect(error.stdout).toContain("expected: a 2xx answer");
      expect(error.stdout).toMatch(/actual: {3}404/);
    } finally {
      forgetful.close();
    }
  });

  it("says what is wrong with a provider that answers 200 {} to everything, one line per check", async () => {
    const wrong = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => wrong.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(wrong.address() as AddressInfo).port}`;
    const dir = await mkdtemp(join(tmpdir(), "payspec-verify-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    try {
      const error = await run(process.execPath, [
        CLI,
        "--target",
        url,
        "--profile",
        "sandbox",
        "--json",
        join(dir, "report.json"),
        "--junit",
        join(dir, "junit.xml"),
      ]).catch((e) => e);
      expect(error.code).toBe(1);
      const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
      const byId = (id: string) => report.results.find((r: { id: string }) => r.id === id);
      // A scenario whose setup the provider failed is an error that says why, never a skip.
      expect(byId("state.cancel-twice")).toMatchObject({
        status: "error",
        note: "setup failed: GET /v1/accounts answered 200 without a list",
      });
      expect(byId("gateway.token-reuse").status).toBe("failed");
      expect(byId("report.content")).toMatchObject({
        status: "error",
        note: "setup failed: login answered 200 without an accessToken",
      });
      // Skipped only where nothing could be asked: no input to break, no card payment of the run to
      // look for in the report (the checks that tried to pay failed, above).
      const skipped = report.results.filter((r: { status: string }) => r.status === "skipped");
      expect(skipped.map((r: { id: string; note: string }) => r.note)).toEqual(
        skipped.map((r: { id: string }) =>
          r.id === "report.every-payment"
            ? "the run made no successful card payment to look for"
            : "the operation takes no input to break",
        ),
      );
      // One line per check while running, one per failing check in the summary, and a closing
      // line with the table's own numbers.
      const lines = error.stdout.trim().split("\n");
      expect(lines.length).toBeLessThan(report.results.length * 2 + 20);
      const { passed, failed, error: errors, skipped: skips } = report.counts;
      expect(lines.at(-1)).toBe(`${passed} passed, ${failed} failed, ${errors} errors, ${skips} skipped`);
      expect(error.stdout).toContain(`details in ${join(dir, "report.json")}`);
      const junit = await readFile(join(dir, "junit.xml"), "utf8");
      expect(junit).toContain('<skipped message="the operation takes no input to break"/>');
    } finally {
      wrong.close();
    }
  });

  it("passes the sandbox and behaviour profiles and leaves the data alone: its own workspace by default, a workspace with payments refused (exit 2) unless --allow-writes, every clock put back", async () => {
    await sandbox.reset();
    const demo = DEMO_API_KEYS[0];
    const payments = async (key: string) => {
      const answer = await fetch(`${sandbox.url}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      return ((await answer.json()) as { pagination: { total: number } }).pagination.total;
    };
    const first = await runVerification(parseOptions(["--target", sandbox.url, "--profile", "sandbox"]));
    expectClean(first);
    expect(first.warnings ?? []).toEqual([]);
    // The sandbox profile moved its workspace's clock a day and the gateway's past a token's life: both are back.
    for (const scope of [workspaceScope(VERIFY_API_KEY), GATEWAY_SCOPE])
      expect(Math.abs((await sandbox.clocks.now(scope)) - Date.now())).toBeLessThan(60_000);
    expect(await payments(VERIFY_API_KEY)).toBeGreaterThan(0);
    expect(await payments(demo)).toBe(0);
    // The verification workspace is emptied before each run: a second run needs nothing.
    const second = await runVerification(parseOptions(["--target", sandbox.url, "--profile", "behaviour"]));
    expectClean(second);

    // Somebody's workspace with payments in it is refused, unless --allow-writes.
    const [from, to] = seedWorkspace(demo).accounts;
    await fetch(`${sandbox.url}/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: 10, currency: "TRY", method: "eft", from_account: from?.id, to_account: to?.id }),
    });
    const before = await payments(demo);
    expect(before).toBeGreaterThan(0);
    const args = [CLI, "--target", sandbox.url, "--profile", "behaviour", "--api-key", demo];
    const refused = await run(process.execPath, args).catch((e) => e);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^payspec verify could not run: the workspace of this API key already has \d+ payments?, and the behaviour profile adds payments of its own\. .* or --allow-writes to run here anyway\.\n$/,
    );
    expect(await payments(demo)).toBe(before);
    const allowed = await runVerification(parseOptions([...args.slice(1), "--allow-writes"]));
    expect(allowed.counts.failed + allowed.counts.error).toBe(0);
  });

  it("reports coverage of declared statuses and constraints, fails under --min-coverage, and exits 0 over it with JUnit and JSON reports without card data", async () => {
    const dir = await mkdtemp(join(tmpdir(), "payspec-verify-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const args = [
      ...[CLI, "--target", sandbox.url, "--profile", "behaviour", "--allow-writes"],
      ...["--json", join(dir, "report.json")],
    ];
    const below = await run(process.execPath, [...args, "--min-coverage", "99", "--coverage"]).catch((e) => e);
    expect(below.code).toBe(1);
    expect(below.stdout).toMatch(/coverage \d+\.\d% is below --min-coverage 99%/);
    expect(below.stdout).toMatch(/GET \/v1\/payments\/\{id\}\s+200 400 401 404 \(not seen: 500 503\)/);
    const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
    const create = report.coverage.operations.find((o: { operation: string }) => o.operation === "POST /v1/payments");
    expect(create.seen).toEqual(["201", "400", "401"]);
    expect(create.constraintsExercised).toBe(create.constraintsFound);
    expect(create.constraintsFound).toBeGreaterThan(10);
    // Over the bar, the same run exits 0 and writes its JUnit report too, neither report holding card data.
    const junitFile = join(dir, "junit.xml");
    const enough = await run(process.execPath, [
      ...args,
      ...["--min-coverage", String(Math.floor(report.coverage.percent)), "--junit", junitFile],
    ]);
    expect(enough.stdout).toMatch(/\d+ passed, 0 failed/);
    const junit = await readFile(junitFile, "utf8");
    expect(junit).toContain('<testsuite name="payspec contract: payments"');
    expect(junit).toContain('name="negative.createCardPayment"');
    const passing = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
    expect(passing.counts.failed).toBe(0);
    expect(`${junit}${JSON.stringify(passing)}`).not.toMatch(/5528790000000008/);
  });

  it("prints its usage for -h and --help", async () => {
    for (const flag of ["-h", "--help"]) {
      const help = await run(process.execPath, [CLI, flag]);
      expect(help.stdout).toMatch(/^payspec verify: check a running provider against the payspec specs\n/);
      expect(help.stderr).toBe("");
    }
  });

  it("exits 2 when it cannot run: no provider, or wrong options", async () => {
    const unreachable = await run(process.execPath, [CLI, "--target", "http://127.0.0.1:9"]).catch((e) => e);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("does not answer");
    const usage = await run(process.execPath, [CLI, "--profile", "everything", "--target", sandbox.url]).catch(
      (e) => e,
    );
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--profile must be one of schema, behaviour, sandbox");
    // The sentence stands alone: no usage text buries it, and no stack follows it.
    expect(usage.stderr.trim().split("\n")).toEqual([
      "--profile must be one of schema, behaviour, sandbox.",
      "(payspec-verify --help lists every option.)",
    ]);
  });

  it("gives every interaction a unique id when one consumer has two pact files", async () => {
    const pact = fileURLToPath(
      new URL("../../pact-contracts/users-pacts/webshop-payspec-payments.json", import.meta.url),
    );
    const dir = await mkdtemp(join(tmpdir(), "payspec-two-pacts-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const text = await readFile(pact, "utf8");
    await writeFile(join(dir, "first.json"), text);
    await writeFile(join(dir, "second.json"), text);
    const json = join(dir, "report.json");
    await run(process.execPath, [CLI, "pact", join(dir, "first.json"), join(dir, "second.json"), "--json", json]).catch(
      (e) => e,
    );
    const ids = (JSON.parse(await readFile(json, "utf8")) as { results: { id: string }[] }).results.map((r) => r.id);
    const interactions = (JSON.parse(text) as { interactions: unknown[] }).interactions.length;
    expect(ids).toHaveLength(2 * interactions);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe(`pact.${ids[0]?.split(".")[1]}.${2 * interactions}`);
  });

  it("exits 2 with one sentence when the provider refuses pact replay's --api-key, before any interaction", async () => {
    const pact = fileURLToPath(
      new URL("../../pact-contracts/users-pacts/webshop-payspec-payments.json", import.meta.url),
    );
    const refused = await run(process.execPath, [
      CLI,
      "pact",
      pact,
      "--target",
      sandbox.url,
      "--api-key",
      "sk_not_a_workspace",
    ]).catch((e) => e);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "payspec verify could not run: the provider refused the credentials (401 for GET /v1/accounts): check --api-key (or PAYSPEC_VERIFY_API_KEY).",
    );
    expect(refused.stdout).not.toMatch(/^[!✗✓]/m);
  });

  it("exits 2 with one sentence when pact replay's --target does not answer, before any interaction", async () => {
    const pact = fileURLToPath(
      new URL("../../pact-contracts/users-pacts/webshop-payspec-payments.json", import.meta.url),
    );
    // Port 2: below the kernel's ephemeral range, so no test server is ever given it, and not one of
    // the ports fetch refuses itself (9 is: "bad port"). A port that was free a moment ago is not safe:
    // another test's server, starting at once, can be given it (a fresh-clone run saw exit 1 so).
    const target = "http://127.0.0.1:2";
    const unreachable = await run(process.execPath, [CLI, "pact", pact, "--target", target]).catch((e) => e);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr.trim()).toBe(
      `payspec verify could not run: the provider at ${target} does not answer (ECONNREFUSED): start it, or give the right --target.`,
    );
    expect(unreachable.stdout).not.toMatch(/^[!✗]/m);
  });

  it("exits 2, once, when the provider refuses the credentials: not dozens of violations", async () => {
    const wrongKey = await run(process.execPath, [
      CLI,
      "--target",
      sandbox.url,
      "--api-key",
      "sk_not_a_workspace",
    ]).catch((e) => e);
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain(
      "the provider refused the credentials (401 for GET /v1/accounts): check --api-key",
    );
    expect(wrongKey.stdout).not.toMatch(/failed/);
    const wrongGateway = await run(process.execPath, [CLI, "--target", sandbox.url, "--gateway-secret", "nope"]).catch(
      (e) => e,
    );
    expect(wrongGateway.code).toBe(2);
    expect(wrongGateway.stderr).toContain("check --gateway-key and --gateway-secret");
    expect(`${wrongKey.stderr}${wrongGateway.stderr}`).not.toMatch(/^\s+at /m);
  });
});
