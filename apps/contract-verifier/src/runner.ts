import { loadAnySpec, UnusableSpec } from "./any-spec.js";
import { type Check, type CheckResult, type CheckRun, SetupFailed, SkipCheck, type Violation } from "./check.js";
import { gatewayScenarios } from "./checks/gateway-scenarios.js";
import { listingChecks } from "./checks/listing-semantics.js";
import { operationChecks } from "./checks/operation-checks.js";
import { paymentsScenarios } from "./checks/payments-scenarios.js";
import { VerifyContext } from "./context.js";
import type { CoverageReport } from "./coverage.js";
import { NoAnswer, type RecordedExchange } from "./exchange.js";
import { median } from "./median.js";
import type { Profile, VerifyOptions } from "./options.js";
import { curlFor } from "./reproduction.js";
import { statefulCheck } from "./stateful/stateful-check.js";

const PROFILE_RANK: Record<Profile, number> = { schema: 0, behaviour: 1, sandbox: 2 };

export interface VerificationReport {
  /** `proxy` when the results come from live traffic through `payspec-verify proxy`. */
  readonly mode?: "proxy";
  readonly target: { readonly payments?: string; readonly gateway?: string; readonly openapi?: string };
  /** The --spec file of an any-spec run. */
  readonly spec?: string;
  readonly profile: Profile;
  readonly seed: number;
  readonly shard: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly results: readonly CheckResult[];
  readonly counts: Record<CheckResult["status"], number>;
  /** Declared statuses answered and request constraints broken, per operation. */
  readonly coverage?: CoverageReport;
  /** Set when --min-coverage was given and the run stayed below it. */
  readonly coverageShortfall?: string;
}

/** The checks this run takes: the chosen APIs, up to the chosen profile, this shard's slice. */
export function selectChecks(options: VerifyOptions, context: VerifyContext): Check[] {
  if (options.stateful) return [statefulCheck(options.stateful.runs, options.stateful.maxCommands)];
  const all: Check[] = [];
  if (options.apis.includes("payments"))
    all.push(...operationChecks("payments", context.api("payments").spec), ...paymentsScenarios(), ...listingChecks());
  if (options.apis.includes("gateway"))
    all.push(...operationChecks("gateway", context.api("gateway").spec), ...gatewayScenarios());
  if (options.apis.includes("openapi")) all.push(...operationChecks("openapi", context.api("openapi").spec));
  const inProfile = all.filter((c) => PROFILE_RANK[c.profile] <= PROFILE_RANK[options.profile]);
  const chosen = options.only ? inProfile.filter((c) => options.only?.includes(c.id)) : inProfile;
  if (options.only && chosen.length === 0) {
    throw new CannotRun(`No check of the ${options.profile} profile is named ${options.only.join(" or ")}.`);
  }
  return chosen.filter((_, i) => i % options.shard.count === options.shard.index - 1);
}

/** Thrown when the run cannot start: the provider is unreachable. The CLI exits 2. */
export class CannotRun extends Error {}

async function assertReachable(context: VerifyContext): Promise<void> {
  for (const api of Object.values(context.apis)) {
    try {
      await fetch(api.baseUrl, { signal: AbortSignal.timeout(context.options.timeoutMs) });
    } catch (error) {
      throw new CannotRun(
        `The ${api.name} API at ${api.baseUrl} does not answer: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
  }
}

/**
 * Credentials the provider refuses make every check fail for a reason that is not the provider's
 * fault: that is "could not run" (exit 2), said once, not dozens of violations (exit 1).
 */
async function assertCredentialsAccepted(context: VerifyContext): Promise<void> {
  const refused = (status: number) => status === 401 || status === 403;
  const { payments, gateway } = context.apis;
  const timeout = () => AbortSignal.timeout(context.options.timeoutMs);
  if (payments) {
    const answer = await fetch(new URL("v1/accounts", `${payments.baseUrl.replace(/\/$/, "")}/`), {
      headers: { authorization: `Bearer ${context.options.apiKey}` },
      signal: timeout(),
    });
    await answer.arrayBuffer();
    if (refused(answer.status)) {
      throw new CannotRun(
        `the provider refused the credentials (${answer.status} for GET /v1/accounts): check --api-key (or PAYSPEC_VERIFY_API_KEY).`,
      );
    }
  }
  if (gateway) {
    const answer = await fetch(new URL("auth/login", `${gateway.baseUrl.replace(/\/$/, "")}/`), {
      method: "POST",
      headers: { authorization: context.basicCredentials() },
      signal: timeout(),
    });
    await answer.arrayBuffer();
    if (refused(answer.status)) {
      throw new CannotRun(
        `the provider refused the credentials (${answer.status} for POST /auth/login): check --gateway-key and --gateway-secret (or PAYSPEC_VERIFY_GATEWAY_KEY / _SECRET).`,
      );
    }
  }
}

async function runCheck(check: Check, context: VerifyContext): Promise<CheckResult> {
  const violations: Violation[] = [];
  const times: number[] = [];
  const started = process.hrtime.bigint();
  const run: CheckRun = {
    ctx: context,
    async send(request, api = check.api) {
      const reply = await context.send(api, request, check.id);
      times.push(reply.ms);
      return reply;
    },
    expect(ok, v) {
      if (!ok) {
        const exchange = v.exchange as RecordedExchange | undefined;
        violations.push({
          check: check.id,
          operation:
            v.operation ??
            (exchange ? `${exchange.request.method} ${exchange.request.path.split("?")[0]}` : check.operation),
          ...(exchange
            ? {
                request: exchange.request,
                reproduce: curlFor(exchange.request, context.api(check.api).baseUrl, check.api),
              }
            : {}),
          expected: v.expected,
          actual: v.actual,
          rerun: `--seed ${context.options.seed} --only ${check.id}`,
        });
      }
      return ok;
    },
    skip(reason) {
      throw new SkipCheck(reason);
    },
    cannotStart(reason) {
      throw new SetupFailed(reason);
    },
  };
  let status: CheckResult["status"] = "passed";
  let note: string | undefined;
  try {
    await check.run(run);
    if (violations.length > 0) status = "failed";
  } catch (error) {
    if (error instanceof SkipCheck) {
      status = violations.length > 0 ? "failed" : "skipped";
      note = error.message;
    } else if (error instanceof NoAnswer) {
      status = "failed";
      violations.push({
        check: check.id,
        operation: `${error.request.method} ${error.request.path.split("?")[0]}`,
        request: error.request,
        expected: `an answer within the timeout (${error.timeoutMs} ms)`,
        actual: error.message,
        reproduce: curlFor(error.request, context.api(check.api).baseUrl, check.api),
        rerun: `--seed ${context.options.seed} --only ${check.id}`,
      });
    } else if (error instanceof SetupFailed) {
      status = "error";
      note = `setup failed: ${error.message}`;
    } else {
      status = "error";
      note = `the check could not complete: ${(error as Error).message}`;
    }
  }
  return {
    id: check.id,
    title: check.title,
    api: check.api,
    profile: check.profile,
    status,
    violations,
    ...(note ? { note } : {}),
    requests: times.length,
    durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    medianResponseMs: times.length ? median(times) : 0,
  };
}

/**
 * `sensitive.card-data`: no response of the whole run (body, headers, error messages) held a CVC, a
 * `cvc`/`cvv` field, a card number the run sent or any Luhn-valid 13–19 digit number, whichever check
 * made the request.
 */
function cardDataResult(context: VerifyContext): CheckResult {
  const violations: Violation[] = context.cardDataLeaks.map((leak) => ({
    check: "sensitive.card-data",
    operation: `${leak.exchange.request.method} ${leak.exchange.request.path.split("?")[0]}`,
    request: leak.exchange.request,
    expected: "no card number or CVC in any response (cards masked to six and four digits)",
    actual: `${leak.findings.join("; ")} (request made by ${leak.check})`,
    reproduce: curlFor(leak.exchange.request, leak.baseUrl, leak.api),
    rerun: `--seed ${context.options.seed} --only ${leak.check}`,
  }));
  return {
    id: "sensitive.card-data",
    title: `no response of the run (${context.exchangesScanned} read) holds a full card number or a CVC`,
    api: context.apis.openapi ? "openapi" : context.apis.gateway ? "gateway" : "payments",
    profile: "schema",
    status: violations.length > 0 ? "failed" : "passed",
    violations,
    requests: 0,
    durationMs: 0,
    medianResponseMs: 0,
  };
}

/** How many results have each status: the summary table's numbers. */
export function countByStatus(results: readonly CheckResult[]): Record<CheckResult["status"], number> {
  const counts = { passed: 0, failed: 0, skipped: 0, error: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/** Runs the selected checks one after another and reports each as it finishes. */
export async function runVerification(
  options: VerifyOptions,
  onResult: (result: CheckResult, index: number, total: number) => void = () => {},
): Promise<VerificationReport> {
  let anySpec: object | undefined;
  if (options.specFile) {
    try {
      anySpec = await loadAnySpec(options.specFile);
    } catch (error) {
      if (error instanceof UnusableSpec) throw new CannotRun(error.message);
      throw error;
    }
  }
  const context = new VerifyContext(options, anySpec);
  await assertReachable(context);
  if (!anySpec) await assertCredentialsAccepted(context);
  const checks = selectChecks(options, context);
  const startedAt = new Date();
  const results: CheckResult[] = [];
  for (const [i, check] of checks.entries()) {
    const result = await runCheck(check, context);
    results.push(result);
    onResult(result, i, checks.length);
  }
  results.push(cardDataResult(context));
  onResult(results[results.length - 1] as CheckResult, checks.length, checks.length + 1);
  const counts = countByStatus(results);
  const coverage = context.coverage.report();
  const shortfall =
    options.minCoverage !== undefined && coverage.percent < options.minCoverage
      ? `coverage ${coverage.percent.toFixed(1)}% is below --min-coverage ${options.minCoverage}%`
      : undefined;
  return {
    target: {
      ...(options.paymentsUrl ? { payments: options.paymentsUrl } : {}),
      ...(options.gatewayUrl ? { gateway: options.gatewayUrl } : {}),
      ...(options.openapiUrl ? { openapi: options.openapiUrl } : {}),
    },
    ...(options.specFile ? { spec: options.specFile } : {}),
    profile: options.profile,
    seed: options.seed,
    shard: `${options.shard.index}/${options.shard.count}`,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    results,
    counts,
    coverage,
    ...(shortfall ? { coverageShortfall: shortfall } : {}),
  };
}
