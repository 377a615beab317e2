import { loadAnySpec, serverBasePath, UnusableSpec } from "./any-spec.js";
import { CannotRun } from "./cannot-run.js";
import { type Check, type CheckResult, type CheckRun, SetupFailed, SkipCheck, type Violation } from "./check.js";
import { shownActual } from "./checks/expectations.js";
import { gatewayScenarios } from "./checks/gateway-scenarios.js";
import { listingChecks } from "./checks/listing-semantics.js";
import { operationChecks } from "./checks/operation-checks.js";
import { paymentsScenarios } from "./checks/payments-scenarios.js";
import { VerifyContext } from "./context.js";
import type { CoverageReport } from "./coverage.js";
import { type CleanupReport, type LeftRecord, leftRecord } from "./created-records.js";
import { assertCredentialsAccepted } from "./credentials-check.js";
import { neverCalled } from "./destructive-calls.js";
import { NoAnswer, type RecordedExchange, unanswered } from "./exchange.js";
import { median } from "./median.js";
import { operationParameters } from "./operation-requests.js";
import {
  checkChosen,
  IDEMPOTENT_METHODS,
  operationChosen,
  type Profile,
  rerunFlags,
  SAFE_METHODS,
  SANDBOX_VERIFY_API_KEY,
  type VerifyOptions,
  variableFor,
} from "./options.js";
import { produceIds } from "./produced-ids.js";
import { SpecProblem } from "./schema-data.js";
import { ServerDown } from "./server-down.js";
import { notRunResult, serverDownResult } from "./server-down-result.js";
import { operationsOf } from "./spec-operations.js";
import { statefulCheck } from "./stateful/stateful-check.js";

const PROFILE_RANK: Record<Profile, number> = { schema: 0, behaviour: 1, sandbox: 2 };

export interface VerificationReport {
  /** `proxy`: live traffic through `payspec-verify proxy`; `pact`: consumer pacts through `payspec-verify pact`. */
  readonly mode?: "proxy" | "pact";
  /** The pacts of a `pact` run. */
  readonly pacts?: readonly {
    file: string;
    consumer: string;
    /** The consumer version that published it (broker mode). */
    consumerVersion?: string;
    provider: string;
    specification: string;
  }[];
  readonly target: {
    readonly payments?: string;
    readonly gateway?: string;
    readonly openapi?: string;
    readonly broker?: string;
  };
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
  /** A run of another spec that wrote: what it created and deleted at its end, and what it left. */
  readonly cleanup?: CleanupReport;
  /** Set when --min-coverage was given and the run stayed below it. */
  readonly coverageShortfall?: string;
  /** What looks wrong with the run itself or the spec (credentials, base path, undeclared statuses). */
  readonly warnings?: readonly string[];
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
  const inProfile = all.filter(
    (c) =>
      PROFILE_RANK[c.profile] <= PROFILE_RANK[options.profile] &&
      checkChosen(options, c.id) &&
      mayCall(options, operationOf(c)),
  );
  const chosen = (options.only ? inProfile.filter((c) => options.only?.includes(c.id)) : inProfile).sort(
    (a, b) => Number(a.runsLast ?? false) - Number(b.runsLast ?? false),
  );
  if (options.only && chosen.length === 0) {
    const destroying = all.find((c) => options.only?.includes(c.id) && destroysUnmade(options, operationOf(c)));
    if (destroying)
      throw new CannotRun(
        `${destroying.id} is not run: ${destroying.operation} ${neverCalled(operationOf(destroying))}. Give --allow-destructive to run it, on a server whose data may be lost.`,
      );
    throw new CannotRun(`No check of the ${options.profile} profile is named ${options.only.join(" or ")}.`);
  }
  if (chosen.length === 0 && (options.includeChecks || options.excludeChecks))
    throw new CannotRun("--include-checks and --exclude-checks leave no check to run; loosen them.");
  return chosen.filter((_, i) => i % options.shard.count === options.shard.index - 1);
}

/** A check's operation as --include-operations and --exclude-operations match it. */
function operationOf(check: Check): { operationId: string; method: string; template: string } {
  const [method = "", template = ""] = check.operation.split(" ", 2);
  return { operationId: check.operationId ?? "", method, template };
}

/**
 * An operation of another spec that switches the whole server into a mode (maintenance, shutdown):
 * a run would leave it there for everyone, so it is called only when --include-operations names it.
 */
const MODE_SWITCH = /maintenance|shutdown|restart|read-?only-?mode/i;

function switchesMode(options: VerifyOptions, op: { operationId: string; method: string; template: string }): boolean {
  if (!options.specFile || options.includeOperations) return false;
  return !SAFE_METHODS.includes(op.method) && MODE_SWITCH.test(`${op.template} ${op.operationId}`);
}

/**
 * An operation of another spec that changes or removes what exists whatever the run makes (`DELETE
 * /cache`, `PUT /settings`, `POST /reset`): on a shared server it is called only with --allow-destructive.
 */
function destroysUnmade(options: VerifyOptions, op: { operationId: string; method: string; template: string }) {
  return options.specFile !== undefined && !options.allowDestructive && neverCalled(op) !== undefined;
}

/** Whether the run may call an operation: chosen by --read-only and the operation filters, no mode switch, nothing destroyed. */
function mayCall(options: VerifyOptions, op: { operationId: string; method: string; template: string }): boolean {
  return operationChosen(options, op) && !switchesMode(options, op) && !destroysUnmade(options, op);
}

/**
 * What a run of another spec left alone to keep what it did not create, said once: the operations
 * never called, and those skipped for want of an id of the run's own.
 */
function leftAloneNote(options: VerifyOptions, context: VerifyContext): string[] {
  if (!options.specFile || options.allowDestructive || options.readOnly) return [];
  const never = operationsOf("openapi", context.api("openapi").spec)
    .filter((op) => operationChosen(options, op) && !switchesMode(options, op) && destroysUnmade(options, op))
    .map((op) => `${op.method} ${op.template}`);
  const skipped = [...context.leftAlone.keys()];
  if (never.length === 0 && skipped.length === 0) return [];
  const named = (list: string[]) =>
    list.slice(0, 8).join(", ") + (list.length > 8 ? ` and ${list.length - 8} more` : "");
  return [
    `left alone so that nothing this run did not create is changed or deleted: ${[
      never.length > 0
        ? `${never.length} operation${never.length === 1 ? "" : "s"} never called, as they act on what exists whatever the run makes (${named(never)})`
        : "",
      skipped.length > 0
        ? `${skipped.length} skipped, as the run created no thing of the kind they act on (${named(skipped)}; each check's note says why)`
        : "",
    ]
      .filter(Boolean)
      .join("; ")}. --allow-destructive calls them, on a throw-away server only.`,
  ];
}

/** The operations a run of another spec will not call because they switch the server's mode, said once. */
export function modeSwitchesLeftOut(options: VerifyOptions, context: VerifyContext): string[] {
  if (!options.specFile || options.includeOperations) return [];
  const all = operationChecks("openapi", context.api("openapi").spec).filter((c) =>
    switchesMode(options, operationOf(c)),
  );
  const operations = [...new Set(all.map((c) => c.operation))];
  return operations.length === 0
    ? []
    : [
        `not called: ${operations.join(", ")}: each switches the whole server into a mode (maintenance, shutdown) that would stay on for everyone; name it in --include-operations to check it.`,
      ];
}

/**
 * Before any check of another spec's run: each list operation the run may call (a GET with no path
 * parameter and no required query parameter) is asked once, and the ids in its answer kept for path
 * parameters. Every run does this whatever checks it takes, so a rerun sees what the full run saw.
 */
async function discoverIds(context: VerifyContext): Promise<void> {
  const spec = context.api("openapi").spec;
  for (const op of operationsOf("openapi", spec)) {
    if (op.method !== "GET" || op.template.includes("{") || !mayCall(context.options, op)) continue;
    const required = operationParameters(spec, op).some(({ param }) => param.required && param.in !== "header");
    if (required) continue;
    try {
      const reply = await context.send("openapi", { method: "GET", path: op.template }, "(discovery)");
      if (reply.status >= 200 && reply.status < 300) {
        context.discovered.harvest(op.template, reply.body);
        context.created?.listedBefore(op.template, reply.body);
      }
    } catch (error) {
      if (!(error instanceof NoAnswer) && !(error instanceof SkipCheck)) throw error;
    }
  }
}

/** Which by-id operations got ids the server returned, and how many got generated ones. */
function discoveryNote(context: VerifyContext): string[] {
  if (!context.apis.openapi) return [];
  const spec = context.api("openapi").spec;
  const byId = [
    ...new Set(
      operationsOf("openapi", spec)
        .filter((op) => op.template.includes("{") && operationChosen(context.options, op))
        .map((op) => `${op.method} ${op.template}`),
    ),
  ];
  if (byId.length === 0) return [];
  const used = [...context.discovered.used];
  const named = used.slice(0, 3).join(", ") + (used.length > 3 ? ` and ${used.length - 3} more` : "");
  const made = context.discovered.usedMade.size;
  const madeNote = made > 0 ? `, ${made} of them from creating one first (links, Location, the created body's id)` : "";
  return [
    `path parameters: ${used.length} of ${byId.length} by-id operations got ids the server returned${used.length ? ` (${named})` : ""}, from its list operations${madeNote}; the others got generated ones, so they mostly exercise their 404.`,
  ];
}

export { CannotRun };

async function assertReachable(context: VerifyContext): Promise<void> {
  for (const api of Object.values(context.apis)) {
    const why = await unanswered(api.baseUrl, context.options.timeoutMs, context.options.headers);
    if (why !== undefined)
      throw new CannotRun(
        `The ${api.name} API at ${api.baseUrl} does not answer (${why}): start it, or give the right --target.`,
      );
  }
}

/**
 * The behaviour and sandbox profiles add payments to the workspace (and move clocks, which the run
 * puts back). The sandbox's verification workspace is emptied first (it is kept for this); any other
 * workspace that already has payments holds somebody's data: the run refuses, unless --allow-writes
 * says it may.
 */
async function assertWorkspaceMayBeWritten(context: VerifyContext): Promise<void> {
  const { options } = context;
  const writes = options.stateful !== undefined || PROFILE_RANK[options.profile] >= PROFILE_RANK.behaviour;
  if (!writes || options.allowWrites || !context.apis.payments) return;
  if (options.apiKey === SANDBOX_VERIFY_API_KEY) {
    // A provider without the sandbox's control API keeps its data; the check below then applies.
    await context.send("payments", { method: "POST", path: "/_sandbox/reset", json: {} });
  }
  const reply = await context.send("payments", { method: "GET", path: "/v1/payments?limit=1" });
  const page = reply.body as { data?: unknown; pagination?: { total?: unknown } } | undefined;
  const total = page?.pagination?.total;
  if (
    reply.status === 200 &&
    typeof total === "number" &&
    total > 0 &&
    Array.isArray(page?.data) &&
    page.data.length === 0
  ) {
    throw new CannotRun(
      `the provider contradicts itself: GET /v1/payments?limit=1 says pagination.total is ${total} but lists no payment, so whether this workspace holds data cannot be told. That is a provider bug to fix; --allow-writes runs anyway.`,
    );
  }
  if (reply.status === 200 && typeof total === "number" && total > 0) {
    throw new CannotRun(
      `the workspace of this API key already has ${total} payment${total === 1 ? "" : "s"}, and the ${options.stateful ? "stateful run" : `${options.profile} profile`} adds payments of its own. Give the key of a workspace kept for verification (--api-key or PAYSPEC_VERIFY_API_KEY; a sandbox serves one workspace per key in PAYSPEC_API_KEYS, and POST /_sandbox/reset empties one), or --allow-writes to run here anyway.`,
    );
  }
}

async function runCheck(check: Check, context: VerifyContext): Promise<CheckResult> {
  context.beginCheck(check.id);
  const violations: Violation[] = [];
  const warnings = new Set<string>();
  const times: number[] = [];
  const started = process.hrtime.bigint();
  const run: CheckRun = {
    ctx: context,
    async send(request, api = check.api) {
      const reply = await context.send(api, request, check.id);
      times.push(reply.ms);
      // A rate limit is the server pacing the run, not an answer to the request: no verdict from it.
      if (reply.status === 429)
        throw new SkipCheck(
          `the server answered 429 (a rate limit), again after waiting out its Retry-After or asking for a longer wait than --retry-after-max (30 s unless given): no verdict; pace the run with --rate-limit or wait longer with --retry-after-max`,
        );
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
                reproduce: context.reproduce(check.api, exchange.request),
              }
            : {}),
          expected: v.expected,
          actual: shownActual(v.actual),
          rerun: rerunFlags(context.options, check.id),
        });
      }
      return ok;
    },
    warn(message) {
      warnings.add(message);
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
    // The target fell over: the run, not this check, reports it (see checksUntilDown).
    if (error instanceof ServerDown) throw error;
    if (error instanceof SkipCheck) {
      status = violations.length > 0 ? "failed" : "skipped";
      note = error.message;
    } else if (error instanceof NoAnswer) {
      status = "failed";
      violations.push({
        check: check.id,
        operation: `${error.request.method} ${error.request.path.split("?")[0]}`,
        request: error.request,
        expected:
          error.kind === "timeout"
            ? `an answer within the timeout (${error.timeoutMs} ms)`
            : error.kind === "closed"
              ? IDEMPOTENT_METHODS.includes(error.request.method.toUpperCase())
                ? "an answer before the server closes the connection (this idempotent request was sent twice)"
                : "an answer before the server closes the connection (a server refusing a request early should still let the client read its answer, RFC 9112 §9.6)"
              : "an answer",
        actual: error.message,
        reproduce: context.reproduce(check.api, error.request),
        rerun: rerunFlags(context.options, check.id),
      });
    } else if (error instanceof SpecProblem) {
      status = "error";
      note = `spec problem: ${error.message}`;
    } else if (error instanceof SetupFailed) {
      status = "error";
      note = `setup failed: ${error.message}`;
    } else if (error instanceof TypeError && violations.length > 0) {
      // A check read a field the provider left out: the violations already recorded (the answer's
      // schema problems) are the finding, not the check's stumble over what was missing.
      status = "failed";
      note = "stopped at an answer that lacks what the spec requires; its violations say what";
    } else {
      status = "error";
      note = `the check could not complete: ${(error as Error).message}`;
    }
  }
  // Whatever the provider answered goes into reports: no credential of the run may come back out there.
  return context.secrets.redactDeep({
    id: check.id,
    title: check.title,
    api: check.api,
    profile: check.profile,
    status,
    violations,
    ...(note ? { note } : {}),
    ...(warnings.size > 0 ? { warnings: [...warnings] } : {}),
    requests: times.length,
    durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    medianResponseMs: times.length ? median(times) : 0,
  });
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
    reproduce: context.reproduce(leak.api, leak.exchange.request, leak.baseUrl),
    rerun: rerunFlags(context.options, leak.check),
  }));
  return context.secrets.redactDeep({
    id: "sensitive.card-data",
    title: `no response of the run (${context.exchangesScanned} read) holds a full card number or a CVC`,
    api: context.apis.openapi ? "openapi" : context.apis.gateway ? "gateway" : "payments",
    profile: "schema",
    status: violations.length > 0 ? "failed" : "passed",
    violations,
    requests: 0,
    durationMs: 0,
    medianResponseMs: 0,
  });
}

/** The share of operations refusing every valid request above which a run fails (`acceptance.valid-data`). */
export const REFUSED_ALL_THRESHOLD = 0.5;

/**
 * `acceptance.valid-data`, for runs of another spec with at least four positive checks: a provider
 * refusing all valid data for most operations fails, even where each refusal is declared (alone, a
 * declared refusal is a business rule the run cannot know, and only a warning).
 */
function acceptanceResult(context: VerifyContext): CheckResult[] {
  const { ran, refusedAll } = context.acceptance;
  if (!context.apis.openapi || ran < 4) return [];
  const failed = refusedAll.length > ran * REFUSED_ALL_THRESHOLD;
  const named =
    refusedAll.slice(0, 10).join(", ") + (refusedAll.length > 10 ? ` and ${refusedAll.length - 10} more` : "");
  return [
    {
      id: "acceptance.valid-data",
      title: `at most half of the operations checked refuse every valid request (${refusedAll.length} of ${ran} did)`,
      api: "openapi",
      profile: "schema",
      status: failed ? "failed" : "passed",
      violations: failed
        ? [
            {
              check: "acceptance.valid-data",
              operation: "(the whole run)",
              expected: `valid requests accepted by most operations (at most ${REFUSED_ALL_THRESHOLD * 100}% refusing all of them)`,
              actual: `${refusedAll.length} of ${ran} operations refused every valid request with a 4xx (${named}); a provider refusing everything is not keeping business rules. If these operations need data the run cannot make, leave them out with --exclude-operations`,
              rerun: rerunFlags(context.options, "acceptance.valid-data").replace(/ --only \S*$/, ""),
            },
          ]
        : [],
      requests: 0,
      durationMs: 0,
      medianResponseMs: 0,
    },
  ];
}

/** `sensitive.credentials`: no answer of the run repeated a credential it sent. */
function credentialsResult(context: VerifyContext): CheckResult {
  const violations: Violation[] = context.credentialEchoes.map((echo) => ({
    check: "sensitive.credentials",
    operation: `${echo.exchange.request.method} ${echo.exchange.request.path.split("?")[0]}`,
    request: echo.exchange.request,
    expected: "no credential the run sent (a --header value, an API key, a token) in any answer",
    actual: `a credential the run sent came back in ${echo.where.join(" and ")} (request made by ${echo.check})`,
    reproduce: context.reproduce(echo.api, echo.exchange.request, echo.baseUrl),
    rerun: rerunFlags(context.options, echo.check),
  }));
  return context.secrets.redactDeep({
    id: "sensitive.credentials",
    title: `no answer of the run (${context.exchangesScanned} read) repeats a credential it sent`,
    api: context.apis.openapi ? "openapi" : context.apis.gateway ? "gateway" : "payments",
    profile: "schema",
    status: violations.length > 0 ? "failed" : "passed",
    violations,
    requests: 0,
    durationMs: 0,
    medianResponseMs: 0,
  });
}

/**
 * What the answers say about the run itself: valid requests mostly refused (credentials?), every
 * answer a 404 (base path?), and the checks' findings about the spec.
 */
function runWarnings(context: VerifyContext, results: readonly CheckResult[]): string[] {
  const warnings = new Set(groupedByOperation(results.flatMap((r) => r.warnings ?? [])));
  const valid = context.answers.filter((a) => /^(positive|generated)\./.test(a.check));
  const refusedAuth = valid.filter((a) => a.status === 401 || a.status === 403).length;
  const credentialsHint = context.apis.openapi ? "give them with --header" : "check --api-key and --gateway-key";
  if (valid.length >= 3 && refusedAuth * 2 > valid.length)
    warnings.add(
      `${refusedAuth} of ${valid.length} valid requests were refused with 401 or 403: are the credentials right? (${credentialsHint})`,
    );

  if (context.answers.length >= 3 && context.answers.every((a) => a.status === 404)) {
    const basePath = context.options.basePath;
    warnings.add(
      `every answer was 404: is ${context.options.openapiUrl ?? "--target"} where the API's paths start?${
        context.apis.openapi
          ? ` The run put ${basePath ? `"${basePath}"` : "no base path"} before the spec's paths; give --base-path if the API lives elsewhere.`
          : ""
      }`,
    );
  }
  return [...warnings];
}

/**
 * Findings that many operations share ("GET /a: 401 for missing credentials is not declared; …")
 * said once, with the operations named: a large spec must not bury the rest.
 */
function groupedByOperation(findings: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  const alone: string[] = [];
  for (const finding of new Set(findings)) {
    const match = /^([A-Z]+ \S+): (.+)$/.exec(finding);
    if (!match) {
      alone.push(finding);
      continue;
    }
    const [, operation, rest] = match as unknown as [string, string, string];
    groups.set(rest, [...(groups.get(rest) ?? []), operation]);
  }
  const grouped = [...groups.entries()].map(([rest, operations]) => {
    if (operations.length === 1) return `${operations[0]}: ${rest}`;
    const named = operations.slice(0, 3).join(", ");
    const more = operations.length > 3 ? ` and ${operations.length - 3} more` : "";
    return `${operations.length} operations (${named}${more}): ${rest}`;
  });
  return [...grouped, ...alone];
}

/** How many results have each status: the summary table's numbers. */
export function countByStatus(results: readonly CheckResult[]): Record<CheckResult["status"], number> {
  const counts = { passed: 0, failed: 0, skipped: 0, error: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/**
 * The checks one after another, after the run's own first requests (`before`). When the target stops
 * answering, that is one failure naming the requests sent just before; with --wait-for-restart the
 * run waits for it to come back, else every check not yet run is reported as not run.
 */
async function checksUntilDown(
  context: VerifyContext,
  checks: readonly Check[],
  results: CheckResult[],
  onResult: (result: CheckResult, index: number, total: number) => void,
  before: () => Promise<void>,
  interrupted?: AbortSignal,
): Promise<void> {
  const { options } = context;
  let notRun: string | undefined;
  const fellOver = async (down: ServerDown): Promise<string> => {
    const back = options.waitForRestartMs !== undefined && (await context.awaitRestart(options.waitForRestartMs));
    results.push(serverDownResult(down, options, back, (api, request) => context.reproduce(api, request)));
    onResult(results[results.length - 1] as CheckResult, results.length - 1, checks.length + 1);
    if (back) return "";
    notRun = `the server stopped answering (${down.why}) before this check; see ${results[results.length - 1]?.id}`;
    return notRun;
  };
  try {
    await before();
  } catch (error) {
    if (!(error instanceof ServerDown)) throw error;
    await fellOver(error);
  }
  for (const [i, check] of checks.entries()) {
    let result: CheckResult;
    if (!notRun && interrupted?.aborted)
      notRun = `the run was interrupted (${String(interrupted.reason ?? "a signal")}) before this check`;
    if (notRun) result = notRunResult(check, notRun);
    else {
      try {
        result = await runCheck(check, context);
      } catch (error) {
        if (!(error instanceof ServerDown)) throw error;
        const why = await fellOver(error);
        result = notRunResult(
          check,
          why ||
            "the server stopped answering during this check and came back (--wait-for-restart); run it again alone",
        );
      }
    }
    results.push(result);
    onResult(result, i, checks.length);
  }
}

/**
 * A run in which every request carrying its credentials was refused (401, 403) verified nothing: a
 * rerun line whose variable is not set, an expired token. It must not end "passed" (each refusal
 * alone is only a warning), so it cannot run: exit 2, naming the variables to set.
 */
function assertCredentialsNotRefusedEverywhere(context: VerifyContext): void {
  const { sent, refused } = context.credentialed;
  if (sent === 0 || refused < sent) return;
  const { options } = context;
  const variables = options.specFile
    ? [...Object.keys(options.headers ?? {}), ...Object.keys(options.auth ?? {})].map((name) => `$${variableFor(name)}`)
    : ["$PAYSPEC_VERIFY_API_KEY", "$PAYSPEC_VERIFY_GATEWAY_KEY", "$PAYSPEC_VERIFY_GATEWAY_SECRET"];
  throw new CannotRun(
    `every one of the ${sent} request${sent === 1 ? "" : "s"} that carried the run's credentials was refused (401 or 403), so nothing was verified: the credential is missing, wrong or expired. Set ${variables.join(", ")} (what the printed curl and rerun lines read) to a working credential, or give it with ${options.specFile ? "--header or --auth" : "--api-key, --gateway-key and --gateway-secret"}, and run again.`,
  );
}

/** Runs the selected checks one after another and reports each as it finishes. */
export async function runVerification(
  options: VerifyOptions,
  onResult: (result: CheckResult, index: number, total: number) => void = () => {},
  /** Aborted (SIGINT, SIGTERM): no further check starts, and what the run created is still deleted. */
  interrupted?: AbortSignal,
): Promise<VerificationReport> {
  let anySpec: object | undefined;
  if (options.specFile) {
    try {
      anySpec = await loadAnySpec(options.specFile);
    } catch (error) {
      if (error instanceof UnusableSpec) throw new CannotRun(error.message);
      throw error;
    }
    options = withBasePath(options, serverBasePath(anySpec));
  }
  const context = new VerifyContext(options, anySpec);
  await assertReachable(context);
  const checks = selectChecks(options, context);
  try {
    if (!anySpec)
      await assertCredentialsAccepted({
        ...(context.apis.payments ? { payments: { url: context.apis.payments.baseUrl, apiKey: options.apiKey } } : {}),
        ...(context.apis.gateway
          ? { gateway: { url: context.apis.gateway.baseUrl, basic: context.basicCredentials() } }
          : {}),
        timeoutMs: options.timeoutMs,
      });
    await assertWorkspaceMayBeWritten(context);
  } catch (error) {
    // The provider did not answer the run's first requests: said in one sentence, not a stack.
    if (error instanceof NoAnswer || (error as Error).name === "TimeoutError")
      throw new CannotRun(
        `the provider did not answer the run's first requests (${(error as Error).message}): check that it is up and answers within --timeout-ms (${options.timeoutMs} ms).`,
      );
    throw error;
  }
  const startedAt = new Date();
  const results: CheckResult[] = [];
  let clockProblems: string[] = [];
  try {
    await checksUntilDown(
      context,
      checks,
      results,
      onResult,
      async () => {
        if (!anySpec) return;
        await discoverIds(context);
        if (!options.readOnly) await produceIds(context, (op) => mayCall(options, op));
      },
      interrupted,
    );
  } finally {
    clockProblems = context.serverDown ? [] : await context.restoreClocks();
  }
  const cleanup = await cleanUp(context, interrupted?.aborted === true);
  const stoppedAtTheEnd = await context.probeAfterLastRequest();
  if (stoppedAtTheEnd) {
    results.push(
      serverDownResult(stoppedAtTheEnd, options, false, (api, request) => context.reproduce(api, request), "after"),
    );
    onResult(results[results.length - 1] as CheckResult, results.length - 1, results.length);
  }
  assertCredentialsNotRefusedEverywhere(context);
  const closing = [cardDataResult(context), credentialsResult(context), ...acceptanceResult(context)].filter((r) =>
    checkChosen(options, r.id),
  );
  for (const [i, result] of closing.entries()) {
    results.push(result);
    onResult(result, checks.length + i, checks.length + closing.length);
  }
  const warnings = [
    ...runWarnings(context, results),
    ...(anySpec ? modeSwitchesLeftOut(options, context) : []),
    ...(anySpec ? leftAloneNote(options, context) : []),
    ...(context.unmadeBodies.size > 0
      ? [
          `request bodies not made (their media types are not JSON, multipart/form-data or application/x-www-form-urlencoded), so these were sent without one or skipped: ${[...context.unmadeBodies].join(", ")}.`,
        ]
      : []),
    ...discoveryNote(context),
    ...clockProblems,
  ];
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
    ...(cleanup ? { cleanup } : {}),
    ...(shortfall ? { coverageShortfall: shortfall } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * The URL the spec's paths hang from: --target, then --base-path or the spec's first server path,
 * unless --target already ends with it.
 */
function withBasePath(options: VerifyOptions, specBasePath: string): VerifyOptions {
  const basePath = options.basePath ?? specBasePath;
  const target = options.openapiUrl ?? "";
  const joined =
    !basePath || new URL(target).pathname.replace(/\/+$/, "").endsWith(basePath) ? target : `${target}${basePath}`;
  return { ...options, openapiUrl: joined, basePath };
}

/**
 * Deletes what a run of another spec created (RESTler's garbage collection), the newest first so
 * children go before their parents, through the spec's own DELETE; lists what it could not delete
 * (no DELETE in the spec, a refusal, no answer) with why. `--keep-created` keeps all of it, listed.
 * The exit code stays what the checks decided.
 */
async function cleanUp(context: VerifyContext, interrupted: boolean): Promise<CleanupReport | undefined> {
  const created = context.created;
  if (!created || context.options.readOnly) return undefined;
  const marks = interrupted ? { interrupted: true as const } : {};
  const left: LeftRecord[] = [];
  const leave = (record: (typeof created.pending)[number], why: string) => left.push(leftRecord(record, why));
  // What appeared in the lists the run read before its checks, made by its writes as a side effect.
  for (const list of created.lists) {
    if (context.serverDown) break;
    const reply = await context.send("openapi", { method: "GET", path: list }, "(cleanup)").catch((error: unknown) => {
      if (error instanceof NoAnswer || error instanceof ServerDown || error instanceof SkipCheck) return undefined;
      throw error;
    });
    if (!reply || reply.status < 200 || reply.status >= 300) continue;
    const { ours, others } = created.appeared(list, reply.body);
    created.adopt(ours);
    for (const id of others)
      left.push({
        madeBy: `not the run (appeared in GET ${list} during it)`,
        id,
        why: "not deleted: nothing the run sent is in it",
      });
  }
  if (context.options.keepCreated) {
    for (const record of created.pending) leave(record, "kept: --keep-created");
    return { deleted: created.deleted, left, kept: true, ...marks };
  }
  for (const record of created.pending) {
    if (!record.deletePath) {
      leave(record, "the spec has no DELETE for it");
      continue;
    }
    if (record.deleteOperation && !operationChosen(context.options, record.deleteOperation)) {
      leave(
        record,
        `the run may not call ${record.deleteOperation.method} ${record.deleteOperation.template} (--include-operations, --exclude-operations)`,
      );
      continue;
    }
    if (context.serverDown) {
      leave(record, "the server stopped answering before it could be deleted");
      continue;
    }
    try {
      const reply = await context.send("openapi", { method: "DELETE", path: record.deletePath }, "(cleanup)");
      if (!(reply.status >= 200 && reply.status < 300) && reply.status !== 404 && reply.status !== 410)
        leave(record, `DELETE ${record.deletePath} answered ${reply.status}`);
    } catch (error) {
      if (!(error instanceof NoAnswer) && !(error instanceof ServerDown) && !(error instanceof SkipCheck)) throw error;
      leave(record, `DELETE ${record.deletePath} got no answer (${(error as Error).message})`);
    }
  }
  return { deleted: created.deleted, left, ...marks };
}
