import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { usersPactsDir } from "@payspec/pact-contracts";
import { type RunningSandbox, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrokerDouble, startBrokerDouble } from "../src/index.js";

const require = createRequire(import.meta.url);
const pactCli = join(dirname(require.resolve("@pact-foundation/pact-cli/package.json")), "bin");
// The verifier's CLI file itself: pnpm links no bin for a workspace package that was not built at install.
const verifyCli = join(dirname(require.resolve("@payspec/contract-verifier")), "cli.mjs");
const TOKEN = "broker-token-never-printed";
const USERS_PACT = join(usersPactsDir, "webshop-payspec-payments.json");
const RIGHT = [
  "a new payment",
  "a request for a pending payment",
  "a request for the accounts",
  "a request for the accounts without an API key",
];

let broker: BrokerDouble;
let sandbox: RunningSandbox;
const outputs: string[] = [];

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command as CI runs it, with the broker's token in the environment only. */
function run(script: string, args: readonly string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { ...process.env, PACT_DO_NOT_TRACK: "true", SCARF_ANALYTICS: "false", PACT_BROKER_TOKEN: TOKEN } },
      (error, stdout, stderr) => {
        outputs.push(stdout, stderr);
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
const pactBroker = (...args: string[]) => run(join(pactCli, "pact-broker.js"), args);
const publish = (dir: string, version: string) =>
  pactBroker("publish", dir, "--consumer-app-version", version, "--branch", "main", "--broker-base-url", broker.url);
const canIDeploy = (version: string) =>
  pactBroker("can-i-deploy", "--pacticipant", "webshop", "--version", version, "--broker-base-url", broker.url);
const verify = (providerVersion: string) =>
  run(verifyCli, [
    "pact",
    "--broker-url",
    broker.url,
    "--provider",
    "payspec-payments",
    "--consumer-version-selector",
    '{"mainBranch": true}',
    "--target",
    sandbox.url,
    "--publish",
    "--provider-version",
    providerVersion,
    "--provider-branch",
    "main",
  ]);

/** The users' pact with only its right interactions: what the webshop's next version publishes. */
function rightPactDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "right-pact-"));
  const pact = JSON.parse(readFileSync(USERS_PACT, "utf8"));
  pact.interactions = pact.interactions.filter((i: { description: string }) => RIGHT.includes(i.description));
  writeFileSync(join(dir, "webshop-payspec-payments.json"), JSON.stringify(pact));
  return dir;
}

beforeAll(async () => {
  broker = await startBrokerDouble({ token: TOKEN });
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  await broker?.close();
});

describe("the broker round trip with the real pact CLI", () => {
  it("publishes the consumer's pact; can-i-deploy says no while it is unverified", async () => {
    const published = await publish(usersPactsDir, "1.0.0");
    expect(published.code, published.stdout + published.stderr).toBe(0);
    expect(broker.pacts.map((p) => [p.consumer, p.consumerVersion, p.branch])).toEqual([["webshop", "1.0.0", "main"]]);
    const unknown = await canIDeploy("1.0.0");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain("There is no verified pact");
  });

  it("verifies from the broker with the sandbox's states, one line per interaction, and publishes the failure with its branch", async () => {
    const verified = await verify("2.0.0");
    expect(verified.code, verified.stderr).toBe(1);
    const lines = verified.stdout.split("\n").filter((line) => /^[✓✗!] pact\.webshop\.\d /.test(line));
    expect(lines.map((line) => `${line[0]} ${/"([^"]+)"/.exec(line)?.[1]}`).sort()).toEqual(
      [
        "✓ a new payment",
        "✗ a new payment of nothing",
        "✗ a request for a payment that is gone",
        "✗ a request for a payment with its risk score",
        "✓ a request for a pending payment",
        `${lines.find((l) => l.includes("refunded"))?.[0]} a request for a refunded payment`,
        "✓ a request for the accounts",
        "✓ a request for the accounts without an API key",
      ].sort(),
    );
    expect(lines.find((l) => l.includes("refunded"))).toMatch(/^[✗!]/);
    expect(broker.verifications).toHaveLength(1);
    expect(broker.verifications[0]).toMatchObject({
      success: false,
      providerApplicationVersion: "2.0.0",
      providerBranch: "main",
    });
    const notDeployable = await canIDeploy("1.0.0");
    expect(notDeployable.code).toBe(1);
    expect(notDeployable.stdout).toContain("verification results failed");
  });

  it("a pact the sandbox honours: verified, published as a success, and can-i-deploy exits 0", async () => {
    expect((await publish(rightPactDir(), "1.1.0")).code).toBe(0);
    const verified = await verify("2.0.1");
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout.split("\n").filter((line) => line.startsWith("✓ pact.webshop."))).toHaveLength(RIGHT.length);
    expect(broker.verifications.at(-1)).toMatchObject({
      success: true,
      providerApplicationVersion: "2.0.1",
      providerBranch: "main",
    });
    const deployable = await canIDeploy("1.1.0");
    expect(deployable.code, deployable.stdout).toBe(0);
  });

  it("takes a broker's basic credentials from PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD", async () => {
    const guarded = await startBrokerDouble({ basic: "ci-user:ci-password-never-printed" });
    try {
      const env = {
        ...process.env,
        PACT_DO_NOT_TRACK: "true",
        SCARF_ANALYTICS: "false",
        PACT_BROKER_USERNAME: "ci-user",
        PACT_BROKER_PASSWORD: "ci-password-never-printed",
      };
      const exec = (script: string, args: string[]) =>
        new Promise<Ran>((resolve) =>
          execFile(process.execPath, [script, ...args], { env }, (error, stdout, stderr) =>
            resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
          ),
        );
      const dir = rightPactDir();
      expect(
        (
          await exec(join(pactCli, "pact-broker.js"), [
            "publish",
            dir,
            "--consumer-app-version",
            "3.0.0",
            "--branch",
            "main",
            "--broker-base-url",
            guarded.url,
          ])
        ).code,
      ).toBe(0);
      const verified = await exec(verifyCli, [
        "pact",
        "--broker-url",
        guarded.url,
        "--provider",
        "payspec-payments",
        "--target",
        sandbox.url,
        "--junit",
        join(dir, "pacts.xml"),
      ]);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      expect(readFileSync(join(dir, "pacts.xml"), "utf8").match(/<testcase /g)).toHaveLength(RIGHT.length);
      expect(guarded.calls.length).toBeGreaterThan(2);
      expect(guarded.calls.every((call) => call.authorization === "Basic")).toBe(true);
      expect(verified.stdout + verified.stderr).not.toContain("ci-password-never-printed");
    } finally {
      await guarded.close();
    }
  });

  it("names each pact's own consumer and version, numbers results per consumer, and lets a pact about a revoked key keep it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mobile-pact-"));
    const accounts = (description: string, key: string, status: number) => ({
      description,
      request: { method: "GET", path: "/v1/accounts", headers: { Authorization: `Bearer ${key}` } },
      response: { status },
    });
    writeFileSync(
      join(dir, "mobile-app-payspec-payments.json"),
      JSON.stringify({
        consumer: { name: "mobile-app" },
        provider: { name: "payspec-payments" },
        interactions: [
          accounts("a request for the accounts with a revoked key", "sk_revoked_0000", 401),
          accounts("a request for the accounts from the app", "sk_app_own_key", 200),
        ],
        metadata: { pactSpecification: { version: "2.0.0" } },
      }),
    );
    expect((await publish(dir, "4.2.0")).code).toBe(0);
    const verified = await verify("2.0.2");
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const lines = verified.stdout.split("\n").filter((line) => /^[✓✗!] pact\./.test(line));
    expect(lines.filter((line) => line.includes(" webshop 1.1.0 -> payspec-payments: "))).toHaveLength(RIGHT.length);
    expect(lines.filter((line) => line.includes(" mobile-app 4.2.0 -> payspec-payments: "))).toEqual([
      expect.stringMatching(/^✓ pact\.mobile-app\.1 .*revoked key/),
      expect.stringMatching(/^✓ pact\.mobile-app\.2 .*from the app/),
    ]);
    const ids = lines.map((line) => line.split(" ")[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(verified.stdout).toContain("payspec verify pact — 2 pacts, ");
    expect(broker.verifications.at(-1)).toMatchObject({ success: true, providerApplicationVersion: "2.0.2" });
  });

  it("stops with exit 2 and one sentence for a broker that does not answer, or refuses the credentials", async () => {
    const closed = await startBrokerDouble({ token: TOKEN });
    const url = closed.url;
    await closed.close();
    const silent = await run(verifyCli, [
      "pact",
      "--broker-url",
      url,
      "--provider",
      "payspec-payments",
      "--target",
      sandbox.url,
    ]);
    expect(silent.code).toBe(2);
    expect(silent.stderr.trim().split("\n")).toEqual([expect.stringContaining("does not answer: check --broker-url")]);
    const guarded = await startBrokerDouble({ token: "another-token" });
    try {
      const refused = await run(verifyCli, [
        "pact",
        "--broker-url",
        guarded.url,
        "--provider",
        "payspec-payments",
        "--target",
        sandbox.url,
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("refused the credentials (401): set PACT_BROKER_TOKEN");
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      await guarded.close();
    }
  });

  it("every call carried the token, none was left unanswered, and nothing printed the token or skipped a step", () => {
    expect(broker.unanswered).toEqual([]);
    expect(broker.calls.every((call) => call.authorization === "Bearer")).toBe(true);
    const printed = outputs.join("\n");
    expect(printed).not.toContain(TOKEN);
    // The pact tools' own words, and the official verifier's (payspec shows them as warnings).
    expect(printed).not.toContain("Warnings (about the spec or the run");
    expect(printed.split("\n").filter((line) => /\bWARN\b|ignored|skipping|was skipped/i.test(line))).toEqual([]);
  });
});
