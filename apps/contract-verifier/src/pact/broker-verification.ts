import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { redactCardData } from "@payspec/server-kit";
import type { CheckResult, Violation } from "../check.js";
import { CannotRun } from "../runner.js";
import { startCredentialForwarder } from "./credential-forwarder.js";
import type { ReplayTarget } from "./pact-replay.js";
import { stateSetup } from "./pact-replay.js";
import { startStateChangeServer } from "./state-change-server.js";

export interface BrokerOptions {
  readonly brokerUrl: string;
  readonly provider: string;
  /** Consumer version selectors, each a JSON object; none means Pact's recommended main branch plus deployed or released. */
  readonly selectors: readonly string[];
  /** Publish the results as this provider version, on this branch. */
  readonly publish?: { readonly version: string; readonly branch?: string };
}

/** Pact's recommended selectors: the consumers' main branch, and what is deployed or released. */
const DEFAULT_SELECTORS = ['{"mainBranch": true}', '{"deployedOrReleased": true}'];

interface VerifierReport {
  readonly interactionResults?: { description: string; result: string; duration?: string }[];
  readonly errors?: { interaction: string; mismatch: { type: string; message?: string; mismatches?: Mismatch[] } }[];
  readonly output?: string[];
}

interface Mismatch {
  readonly type: string;
  readonly mismatch?: string;
  readonly path?: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly key?: string;
}

/** The official Pact verifier from `@pact-foundation/pact-cli`, which users add beside payspec. */
function pactVerifierBin(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve("@pact-foundation/pact-cli/package.json")), "bin", "pact-verifier.js");
  } catch {
    throw new CannotRun(
      "--broker-url runs the official Pact verifier, which is not installed: npm install --save-dev @pact-foundation/pact-cli",
    );
  }
}

function violationOf(check: string, operation: string, mismatch: Mismatch): Violation {
  const text = redactCardData(mismatch.mismatch ?? mismatch.type);
  if (mismatch.type === "StatusMismatch") {
    return { check, operation, expected: `status ${String(mismatch.expected)}`, actual: String(mismatch.actual) };
  }
  const where = mismatch.path ?? mismatch.key;
  return { check, operation, expected: `${mismatch.type}${where ? ` at ${where}` : ""}`, actual: text };
}

/**
 * Fetches the provider's pacts from a Pact Broker (consumer version selectors), verifies them against
 * the target and publishes the results (provider version and branch), all through the official Pact
 * verifier: payspec adds the sandbox's provider states (a state-change server) and this run's
 * credentials (a forwarder), and reads the verifier's JSON report into one result per interaction.
 * Broker credentials come from PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD,
 * and go to the verifier through its environment, never on a command line or in a report.
 */
export async function verifyFromBroker(
  options: BrokerOptions,
  target: ReplayTarget,
): Promise<{ results: CheckResult[]; warnings: string[] }> {
  const bin = pactVerifierBin();
  const setup = stateSetup(target);
  const states = await startStateChangeServer(setup);
  const forwarder = await startCredentialForwarder(
    { payments: target.paymentsUrl, gateway: target.gatewayUrl },
    { ...target, gatewayToken: setup.gatewayToken },
    target.timeoutMs,
  );
  const scratch = await mkdtemp(join(tmpdir(), "payspec-pact-"));
  const reportFile = join(scratch, "verification.json");
  try {
    const args = [
      bin,
      "--broker-url",
      options.brokerUrl,
      "--provider-name",
      options.provider,
      ...(options.selectors.length > 0 ? options.selectors : DEFAULT_SELECTORS).flatMap((s) => [
        "--consumer-version-selectors",
        s,
      ]),
      "--hostname",
      "127.0.0.1",
      "--port",
      String(forwarder.port),
      "--state-change-url",
      states.url,
      "--json",
      reportFile,
      "--no-colour",
      "--loglevel",
      "warn",
      ...(options.publish
        ? [
            "--publish",
            "--provider-version",
            options.publish.version,
            ...(options.publish.branch ? ["--provider-branch", options.publish.branch] : []),
          ]
        : []),
    ];
    const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        env: { ...process.env, PACT_DO_NOT_TRACK: "true", SCARF_ANALYTICS: "false" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, text }));
    });
    const report = JSON.parse(await readFile(reportFile, "utf8").catch(() => "{}")) as VerifierReport;
    const interactions = report.interactionResults ?? [];
    if (interactions.length === 0) {
      const why =
        report.errors?.[0]?.mismatch.message ?? output.text.split("\n").find((l) => /error|fail/i.test(l)) ?? "";
      throw new CannotRun(
        `the Pact verifier verified no interaction of ${options.provider} from ${options.brokerUrl}: ${redactCardData(why.trim())}. Check --provider and the consumer version selectors.`,
      );
    }
    // What the official verifier warned about (a state change ignored, a pact skipped) is shown, never swallowed.
    const warnings = output.text
      .split("\n")
      .filter((line) => /\bWARN\b|skipp|ignored/i.test(line))
      .map((line) => `Pact verifier: ${redactCardData(line.trim())}`);
    return { results: resultsOf(options.provider, interactions, report), warnings };
  } finally {
    await forwarder.close();
    await states.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

function resultsOf(
  provider: string,
  interactions: NonNullable<VerifierReport["interactionResults"]>,
  report: VerifierReport,
): CheckResult[] {
  const consumers = [...(report.output ?? []).join("\n").matchAll(/Verifying a pact between (.+?) and /g)].map(
    (m) => m[1],
  );
  const consumer = (consumers[0] ?? "consumer").replace(/[^A-Za-z0-9_-]+/g, "-");
  return interactions.map((interaction, index) => {
    const id = `pact.${consumer}.${index + 1}`;
    const failure = report.errors?.find((e) => e.interaction.endsWith(` - ${interaction.description}`));
    const operation = `${provider}: ${interaction.description}`;
    const base = {
      id,
      title: interaction.description,
      api: "payments" as const,
      profile: "behaviour" as const,
      requests: 1,
      durationMs: Number.parseInt(interaction.duration ?? "0", 10) || 0,
      medianResponseMs: 0,
    };
    if (!failure) return { ...base, status: "passed" as const, violations: [] };
    if (failure.mismatch.type !== "mismatches") {
      return {
        ...base,
        status: "error" as const,
        violations: [],
        note: redactCardData(failure.mismatch.message ?? "the Pact verifier failed it"),
      };
    }
    return {
      ...base,
      status: "failed" as const,
      violations: (failure.mismatch.mismatches ?? []).map((m) => violationOf(id, operation, m)),
    };
  });
}
