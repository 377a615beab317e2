import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { redactCardData } from "@payspec/server-kit";
import { CannotRun } from "../cannot-run.js";
import type { CheckResult, Violation } from "../check.js";
import { type BrokerPact, keepsOwnCredentials, pactsForVerification } from "./broker-pacts.js";
import { startCredentialForwarder } from "./credential-forwarder.js";
import { interactionId, type Pact } from "./pact-file.js";
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
/** The official verifier's verdicts, one result per interaction, and the pact each result came from. */
export interface OfficialVerdicts {
  readonly results: CheckResult[];
  readonly pactOf: ReadonlyMap<string, BrokerPact>;
  readonly warnings: string[];
  readonly pacts: BrokerPact[];
}

export async function verifyFromBroker(
  options: BrokerOptions,
  target: ReplayTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OfficialVerdicts> {
  const selectors = options.selectors.length > 0 ? options.selectors : DEFAULT_SELECTORS;
  const pacts = await pactsForVerification(options.brokerUrl, options.provider, selectors, env, target.timeoutMs);
  const source = [
    ...["--broker-url", options.brokerUrl, "--provider-name", options.provider],
    ...selectors.flatMap((s) => ["--consumer-version-selectors", s]),
    ...(options.publish
      ? [
          "--publish",
          "--provider-version",
          options.publish.version,
          ...(options.publish.branch ? ["--provider-branch", options.publish.branch] : []),
        ]
      : []),
  ];
  return runOfficialVerifier(source, `${options.provider} from ${options.brokerUrl}`, options.provider, pacts, target);
}

/**
 * Pact files on disk through the official verifier, with the same states and credentials as broker
 * mode: how the tests show that `payspec-verify pact --target` and the official verifier agree.
 */
export async function verifyFilesOfficially(pacts: readonly Pact[], target: ReplayTarget): Promise<OfficialVerdicts> {
  const provider = pacts[0]?.provider ?? "provider";
  return runOfficialVerifier(
    pacts.flatMap((p) => ["--file", p.file]),
    pacts.map((p) => p.file).join(", "),
    provider,
    pacts.map((pact) => ({ pact })),
    target,
  );
}

async function runOfficialVerifier(
  source: readonly string[],
  from: string,
  provider: string,
  pacts: readonly BrokerPact[],
  target: ReplayTarget,
): Promise<OfficialVerdicts> {
  const bin = pactVerifierBin();
  const setup = stateSetup(target);
  const states = await startStateChangeServer(setup);
  const forwarder = await startCredentialForwarder(
    { payments: target.paymentsUrl, gateway: target.gatewayUrl },
    { ...target, gatewayToken: setup.gatewayToken },
    target.timeoutMs,
    (request) => keepsOwnCredentials(pacts, request),
  );
  const scratch = await mkdtemp(join(tmpdir(), "payspec-pact-"));
  const reportFile = join(scratch, "verification.json");
  try {
    const args = [
      bin,
      ...source,
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
        `the Pact verifier verified no interaction of ${from}: ${redactCardData(why.trim())}. Check --provider and the consumer version selectors.`,
      );
    }
    // What the official verifier warned about (a state change ignored, a pact skipped) is shown, never swallowed.
    const warnings = output.text
      .split("\n")
      .filter((line) => /\bWARN\b|skipp|ignored/i.test(line))
      .map((line) => `Pact verifier: ${redactCardData(line.trim())}`);
    return { ...resultsOf(provider, pacts, interactions, report), warnings, pacts: [...pacts] };
  } finally {
    await forwarder.close();
    await states.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * One result per interaction the official verifier reported, in its order, which is the broker's
 * order of pacts: each is named after its own pact's consumer and numbered per consumer, so two
 * consumers (or two versions of one) never share an id.
 */
function resultsOf(
  provider: string,
  pacts: readonly BrokerPact[],
  interactions: NonNullable<VerifierReport["interactionResults"]>,
  report: VerifierReport,
): { results: CheckResult[]; pactOf: Map<string, BrokerPact> } {
  const expected = pacts.flatMap((p) => p.pact.interactions.map((i) => ({ pact: p, description: i.description })));
  let next = 0;
  let pact = pacts[0];
  const numbered = new Map<string, number>();
  const pactOf = new Map<string, BrokerPact>();
  const results = interactions.map((interaction) => {
    const at = expected.findIndex((e, i) => i >= next && e.description === interaction.description);
    if (at >= 0) {
      pact = expected[at]?.pact;
      next = at + 1;
    }
    const consumer = pact?.pact.consumer ?? "consumer";
    const count = (numbered.get(consumer) ?? 0) + 1;
    numbered.set(consumer, count);
    const id = interactionId(consumer, count);
    if (pact) pactOf.set(id, pact);
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
    // A message or plugin interaction is not checked, as in file mode: said, never judged as HTTP.
    const notHttp = pacts
      .flatMap((p) => p.pact.skipped)
      .find((skipped) => skipped.startsWith(`"${interaction.description}" is a `));
    if (notHttp)
      return {
        ...base,
        status: "skipped" as const,
        violations: [],
        note: `${notHttp} (the official verifier still reports it to the broker as it judged it)`,
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
  return { results, pactOf };
}
