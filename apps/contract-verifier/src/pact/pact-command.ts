import { apiOf } from "@payspec/server-kit";
import { basicAuthorization } from "../basic-auth.js";
import { CannotRun } from "../cannot-run.js";
import type { CheckResult, Violation } from "../check.js";
import { assertCredentialsAccepted } from "../credentials-check.js";
import { unanswered } from "../exchange.js";
import { SANDBOX_VERIFY_API_KEY, UsageError, userPath } from "../options.js";
import { summary } from "../reporters/console-reporter.js";
import { writeJson, writeJunit } from "../reporters/file-reporters.js";
import { curlFor } from "../reproduction.js";
import { countByStatus, type VerificationReport } from "../runner.js";
import { RunSecrets } from "../secrets.js";
import type { BrokerPact } from "./broker-pacts.js";
import { type BrokerOptions, verifyFromBroker } from "./broker-verification.js";
import { interactionId, loadPacts, type Pact, type PactInteraction, UnreadablePact } from "./pact-file.js";
import { type ReplayTarget, replay, stateSetup } from "./pact-replay.js";
import { interactionVsSpec, specFor } from "./pact-vs-spec.js";
import { StateFailed, stateCatalogue, UnknownState } from "./sandbox-provider-states.js";

export const PACT_USAGE = `payspec verify pact: check consumer pacts against the payspec specs and a provider

  payspec-verify pact FILE|DIR... [--target URL] [options]

  FILE|DIR             Pact files (V2, V3 or V4 JSON), or directories of them
  --target URL         also replay every interaction against this provider (the sandbox, or any
                       provider of the payspec APIs), with its provider states set up
  --payments-url URL / --gateway-url URL   the two APIs on different hosts
  --api-key KEY        payments API key    (env PAYSPEC_VERIFY_API_KEY; default sk_sandbox_verify)
  --gateway-key KEY / --gateway-secret SECRET   (env PAYSPEC_VERIFY_GATEWAY_KEY / _SECRET)
  --json FILE          write a JSON report
  --junit FILE         write a JUnit XML report
  --timeout-ms N       per-request timeout (default 10000)

From a Pact Broker (through the official Pact verifier: npm install --save-dev @pact-foundation/pact-cli):
  --broker-url URL --provider NAME --target URL
  --consumer-version-selector JSON   repeatable (default: {"mainBranch": true} and {"deployedOrReleased": true})
  --publish --provider-version V [--provider-branch B]   publish the results to the broker
                       broker credentials: env PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and
                       PACT_BROKER_PASSWORD (never printed)

Each interaction is held to the spec of the API it calls (the operation exists, the status is
declared, the response valid, the request within every bound unless it expects the 400 it earns),
then, with --target, replayed: its states set up, its request sent with the run's credentials, the
answer matched by Pact's rules. One line per interaction; a curl line for each failure.

Provider states the sandbox sets up ({x} is a parameter, from the state's params or its name):
${stateCatalogue()}

Exit codes: 0 every interaction agrees, 1 one or more do not, 2 could not run.`;

interface PactOptions {
  readonly files: readonly string[];
  readonly paymentsUrl?: string;
  readonly gatewayUrl?: string;
  readonly apiKey: string;
  readonly gatewayKey: string;
  readonly gatewaySecret: string;
  readonly jsonFile?: string;
  readonly junitFile?: string;
  readonly timeoutMs: number;
  readonly broker?: BrokerOptions;
}

const VALUED = [
  "target",
  "payments-url",
  "gateway-url",
  "api-key",
  "gateway-key",
  "gateway-secret",
  "json",
  "junit",
  "timeout-ms",
  "broker-url",
  "provider",
  "consumer-version-selector",
  "provider-version",
  "provider-branch",
];

function parsePactOptions(argv: readonly string[], env: NodeJS.ProcessEnv): PactOptions {
  const flags = new Map<string, string>();
  const selectors: string[] = [];
  let publish = false;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith("--")) {
      files.push(userPath(arg, env));
      continue;
    }
    if (arg === "--publish") {
      publish = true;
      continue;
    }
    const cut = arg.indexOf("=");
    const name = cut < 0 ? arg.slice(2) : arg.slice(2, cut);
    const value = cut < 0 ? argv[++i] : arg.slice(cut + 1);
    if (!VALUED.includes(name)) throw new UsageError(`Unknown option --${name}.`);
    if (value === undefined) throw new UsageError(`--${name} needs a value.`);
    if (name === "consumer-version-selector") {
      try {
        if (typeof JSON.parse(value) !== "object") throw new Error();
      } catch {
        throw new UsageError("--consumer-version-selector takes a JSON object, such as '{\"mainBranch\": true}'.");
      }
      selectors.push(value);
    } else flags.set(name, value);
  }
  const brokerUrl = flags.get("broker-url");
  if (brokerUrl !== undefined) {
    if (files.length > 0) throw new UsageError("Give Pact files or --broker-url, not both.");
    if (!flags.has("provider"))
      throw new UsageError("--broker-url needs --provider NAME: the provider whose pacts to verify.");
    if (!flags.has("target") && !flags.has("payments-url") && !flags.has("gateway-url"))
      throw new UsageError("--broker-url needs --target URL: the provider the pacts are verified against.");
  } else if (files.length === 0) {
    throw new UsageError("Name at least one Pact file or a directory of them, or --broker-url URL --provider NAME.");
  }
  if (publish && !flags.has("provider-version"))
    throw new UsageError("--publish needs --provider-version: the version the results are published for.");
  const url = (name: string) => {
    const value = flags.get(name) ?? flags.get("target");
    if (value === undefined) return undefined;
    try {
      new URL(value);
    } catch {
      throw new UsageError(
        `--${flags.has(name) ? name : "target"} is not a URL: give one such as http://127.0.0.1:4010.`,
      );
    }
    return value.replace(/\/$/, "");
  };
  const timeoutMs = Number(flags.get("timeout-ms") ?? 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new UsageError("--timeout-ms must be a whole number of milliseconds.");
  const paymentsUrl = url("payments-url");
  const gatewayUrl = url("gateway-url");
  return {
    files,
    ...(paymentsUrl ? { paymentsUrl } : {}),
    ...(gatewayUrl ? { gatewayUrl } : {}),
    apiKey: flags.get("api-key") ?? env.PAYSPEC_VERIFY_API_KEY ?? SANDBOX_VERIFY_API_KEY,
    gatewayKey: flags.get("gateway-key") ?? env.PAYSPEC_VERIFY_GATEWAY_KEY ?? "gw_demo_key",
    gatewaySecret: flags.get("gateway-secret") ?? env.PAYSPEC_VERIFY_GATEWAY_SECRET ?? "gw_demo_secret",
    ...(flags.has("json") ? { jsonFile: userPath(flags.get("json") as string, env) } : {}),
    ...(flags.has("junit") ? { junitFile: userPath(flags.get("junit") as string, env) } : {}),
    timeoutMs,
    ...(brokerUrl
      ? {
          broker: {
            brokerUrl,
            provider: flags.get("provider") as string,
            selectors,
            ...(publish
              ? {
                  publish: {
                    version: flags.get("provider-version") as string,
                    ...(flags.has("provider-branch") ? { branch: flags.get("provider-branch") as string } : {}),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

/** A short, stable id per interaction: `pact.<consumer>.<n>`, n counting from 1 in the file's order. */
const idOf = (pact: Pact, index: number) => interactionId(pact.consumer, index + 1);

async function judge(
  pact: Pact,
  interaction: PactInteraction,
  index: number,
  target: (ReplayTarget & { setup: ReturnType<typeof stateSetup> }) | undefined,
): Promise<CheckResult> {
  const started = Date.now();
  const api = apiOf(interaction.request.path) === "gateway" ? "gateway" : "payments";
  const operation = `${interaction.request.method} ${interaction.request.path}`;
  const id = idOf(pact, index);
  const base = { id, title: interaction.description, api, profile: "behaviour" } as const;
  // "spec: …" says what the pact claims that the spec does not; "provider: expected X, got Y" what the answer did.
  const violation = (problem: string, extra: Partial<Violation> = {}): Violation => {
    const [expected = problem, actual] = problem.split(/, got (.*)/s);
    return problem.startsWith("spec: ")
      ? { check: id, operation, expected: "an interaction the spec allows", actual: problem.slice(6), ...extra }
      : { check: id, operation, expected: expected.replace(/^provider: /, ""), actual: actual ?? "not that", ...extra };
  };
  const violations: Violation[] = interactionVsSpec(interaction, specFor(interaction)).map((p) => violation(p));
  let requests = 0;
  if (target) {
    try {
      const replayed = await replay(interaction, target, target.setup);
      requests = 1;
      for (const problem of replayed.problems) {
        violations.push(
          violation(problem, {
            ...(replayed.request
              ? { request: replayed.request, reproduce: curlFor(replayed.request, replayed.baseUrl, api) }
              : {}),
          }),
        );
      }
    } catch (error) {
      const note =
        error instanceof UnknownState || error instanceof StateFailed
          ? `provider state: ${error.message}`
          : `provider state could not be set up: ${(error as Error).message}`;
      return {
        ...base,
        status: "error",
        violations,
        note,
        requests,
        durationMs: Date.now() - started,
        medianResponseMs: 0,
      };
    }
  }
  return {
    ...base,
    status: violations.length > 0 ? "failed" : "passed",
    violations,
    requests,
    durationMs: Date.now() - started,
    medianResponseMs: 0,
  };
}

/** One line per interaction: ✓, ✗ with its first problem, or ! when its provider state could not be set up. */
function interactionLine(pact: Pick<Pact, "consumer" | "provider">, result: CheckResult): string {
  const mark = { passed: "✓", failed: "✗", error: "!", skipped: "-" }[result.status];
  const first = result.violations[0];
  const said = (v: Violation) =>
    v.expected === "an interaction the spec allows" ? `spec: ${v.actual}` : `provider: ${v.expected}, got ${v.actual}`;
  const why =
    result.status === "error"
      ? `  ${result.note?.split("\n")[0] ?? ""}`
      : first
        ? `  ${said(first)}${result.violations.length > 1 ? ` (+${result.violations.length - 1} more)` : ""}`
        : "";
  return `${mark} ${result.id} ${pact.consumer} -> ${pact.provider}: "${result.title}"${why}\n`;
}

/**
 * A --target that does not answer is "could not run" (exit 2), said once, before any interaction is
 * tried: not one "provider state could not be set up" line per interaction.
 */
async function assertTargetAnswers(target: ReplayTarget): Promise<void> {
  for (const url of new Set([target.paymentsUrl, target.gatewayUrl])) {
    const why = await unanswered(url, target.timeoutMs);
    if (why !== undefined)
      throw new CannotRun(`the provider at ${url} does not answer (${why}): start it, or give the right --target.`);
  }
}

/** `payspec-verify pact …`: exit 0 when every interaction agrees, 1 when one does not. */
export async function runPactCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parsePactOptions(argv, env);
  const startedAt = new Date();
  let pacts: Pact[] = [];
  try {
    pacts = await loadPacts(options.files);
  } catch (error) {
    if (error instanceof UnreadablePact) throw new UsageError(error.message);
    throw error;
  }
  const secrets = new RunSecrets();
  secrets.addHeader("authorization");
  const replayTarget: ReplayTarget | undefined =
    options.paymentsUrl || options.gatewayUrl
      ? {
          paymentsUrl: (options.paymentsUrl ?? options.gatewayUrl) as string,
          gatewayUrl: (options.gatewayUrl ?? options.paymentsUrl) as string,
          apiKey: options.apiKey,
          gatewayKey: options.gatewayKey,
          gatewaySecret: options.gatewaySecret,
          timeoutMs: options.timeoutMs,
          secrets,
        }
      : undefined;
  if (replayTarget) {
    await assertTargetAnswers(replayTarget);
    // Keys the provider refuses would fail every interaction for the run's fault: said once, exit 2.
    const uses = new Set(pacts.flatMap((p) => p.interactions.map((i) => apiOf(i.request.path))));
    await assertCredentialsAccepted({
      ...(uses.has("payments") ? { payments: { url: replayTarget.paymentsUrl, apiKey: replayTarget.apiKey } } : {}),
      ...(uses.has("gateway")
        ? {
            gateway: {
              url: replayTarget.gatewayUrl,
              basic: basicAuthorization(`${replayTarget.gatewayKey}:${replayTarget.gatewaySecret}`),
            },
          }
        : {}),
      timeoutMs: replayTarget.timeoutMs,
    });
  }
  const target = replayTarget ? { ...replayTarget, setup: stateSetup(replayTarget) } : undefined;
  const results: CheckResult[] = [];
  const warnings: string[] = [];
  const brokerPacts: BrokerPact[] = [];
  if (options.broker && replayTarget) {
    const fromBroker = await verifyFromBroker(options.broker, replayTarget, env);
    warnings.push(...fromBroker.warnings);
    brokerPacts.push(...fromBroker.pacts);
    for (const result of fromBroker.results) {
      results.push(result);
      const pact = fromBroker.pactOf.get(result.id);
      const consumer = pact ? `${pact.pact.consumer}${pact.consumerVersion ? ` ${pact.consumerVersion}` : ""}` : "";
      process.stdout.write(interactionLine({ consumer, provider: options.broker.provider }, result));
    }
  }
  // Interactions are numbered per consumer across its files, so two files of one consumer never
  // share a result id in the JSON and JUnit reports.
  const numbered = new Map<string, number>();
  for (const pact of pacts) {
    for (const skipped of pact.skipped) warnings.push(`${pact.file}: ${skipped}`);
    const offset = numbered.get(pact.consumer) ?? 0;
    numbered.set(pact.consumer, offset + pact.interactions.length);
    for (const [index, interaction] of pact.interactions.entries()) {
      const result = await judge(pact, interaction, offset + index, target);
      results.push(result);
      process.stdout.write(interactionLine(pact, result));
    }
  }
  const report: VerificationReport = {
    mode: "pact",
    target: {
      ...(replayTarget ? { payments: replayTarget.paymentsUrl, gateway: replayTarget.gatewayUrl } : {}),
      ...(options.broker ? { broker: options.broker.brokerUrl } : {}),
    },
    pacts: [
      ...brokerPacts.map(({ pact, consumerVersion }) => ({
        file: pact.file,
        consumer: pact.consumer,
        ...(consumerVersion ? { consumerVersion } : {}),
        provider: pact.provider,
        specification: pact.specVersion,
      })),
      ...pacts.map((p) => ({ file: p.file, consumer: p.consumer, provider: p.provider, specification: p.specVersion })),
    ],
    profile: "behaviour",
    seed: 0,
    shard: "1/1",
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    results,
    counts: countByStatus(results),
    ...(warnings.length ? { warnings } : {}),
  };
  if (options.junitFile) await writeJunit(report, options.junitFile);
  if (options.jsonFile) await writeJson(report, options.jsonFile);
  const files = [options.jsonFile, options.junitFile].filter((f): f is string => f !== undefined);
  process.stdout.write(`${summary(report, files)}\n`);
  return report.counts.failed + report.counts.error > 0 ? 1 : 0;
}
