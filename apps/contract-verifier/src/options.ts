import { resolve } from "node:path";
/** The two payspec APIs, or `openapi`: any spec given with --spec, checked at the schema level. */
export type ApiName = "payments" | "gateway" | "openapi";
export type Profile = "schema" | "behaviour" | "sandbox";

/** Everything a verification run needs to know. */
export interface VerifyOptions {
  /** Base URL of the payments and accounts API (without /v1). */
  readonly paymentsUrl?: string;
  /** Gateway host (login at <host>/auth/login, the rest under <host>/api/v1). */
  readonly gatewayUrl?: string;
  /** Any OpenAPI 3.0/3.1 file to check instead of the payspec specs (with `openapiUrl`). */
  readonly specFile?: string;
  readonly openapiUrl?: string;
  /** Headers sent with every request of an --spec run (its credentials): `Authorization: Bearer …`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The path between --target and the spec's paths (`/v3`): given with --base-path, else the spec's
   * first server's path. Undefined until an --spec run has read its spec.
   */
  readonly basePath?: string;
  /** Run the writing profiles even in a workspace that already has payments. */
  readonly allowWrites?: boolean;
  /**
   * An --spec run may delete, replace and change what it did not create (ids its lists returned,
   * singletons such as settings): for a throw-away server. Without it, only what the run made.
   */
  readonly allowDestructive?: boolean;
  /** Leave what a run of another spec created on the server instead of deleting it at the end. */
  readonly keepCreated?: boolean;
  /** After the target stops answering mid-run, wait this long (ms) for it to come back before stopping. */
  readonly waitForRestartMs?: number;
  /** Check ids or prefixes (`auth`, `negative.addPet`) to run only, and to leave out. */
  readonly includeChecks?: readonly string[];
  readonly excludeChecks?: readonly string[];
  /** Fail (exit 1) when the coverage of statuses and constraints is below this percentage. */
  readonly minCoverage?: number;
  readonly apis: readonly ApiName[];
  /** `schema` runs conformance only; `behaviour` adds stateful scenarios; `sandbox` adds those that need /_sandbox. */
  readonly profile: Profile;
  readonly apiKey: string;
  readonly gatewayKey: string;
  readonly gatewaySecret: string;
  /** Seeds generated data, so a run can be repeated exactly. */
  readonly seed: number;
  /** 1-based shard index and shard count: this run takes every n-th check. */
  readonly shard: { readonly index: number; readonly count: number };
  readonly junitFile?: string;
  readonly jsonFile?: string;
  /** Only these checks (by id), to re-run a failure: `--only state.cancel-twice`. */
  readonly only?: readonly string[];
  /** Run model-based sequences (`stateful.model`) instead of the named checks: how many, how long. */
  readonly stateful?: { readonly runs: number; readonly maxCommands: number };
  /** Print the coverage table after the summary. */
  readonly showCoverage?: boolean;
  /** Per-request timeout in ms. */
  readonly timeoutMs: number;
  /** Only safe methods (GET, HEAD, OPTIONS), no control API, no clock moves: a shared server's data stays as it is. */
  readonly readOnly?: boolean;
  /** Operations to run only, and to leave out: an operationId, `METHOD`, `METHOD /path` or a path glob (`/admin/*`). */
  readonly includeOperations?: readonly string[];
  readonly excludeOperations?: readonly string[];
  /** A declared 4xx to a valid request fails the check (by default it is counted and explained, not failed). */
  readonly strictAcceptance?: boolean;
  /** At most this many requests a second, for the whole run. */
  readonly rateLimit?: number;
  /** The longest Retry-After a 429 or 503 is waited out for (ms); a longer one draws no verdict at once. */
  readonly retryAfterMaxMs?: number;
  /** Credentials by security scheme name (--auth SCHEME=VALUE), for specs whose operations need different ones. */
  readonly auth?: Readonly<Record<string, string>>;
  /** Where to write every request the run sends, one JSON line each (a cassette to compare runs with). */
  readonly recordFile?: string;
}

export class UsageError extends Error {}

/**
 * The payspec sandbox's workspace kept for verification (its VERIFY_API_KEY): the default --api-key,
 * so that a run against a sandbox never writes into the demo workspaces.
 */
export const SANDBOX_VERIFY_API_KEY = "sk_sandbox_verify";

const PROFILES: readonly Profile[] = ["schema", "behaviour", "sandbox"];

export const USAGE = `payspec verify: check a running provider against the payspec specs

  --target URL            base URL serving both APIs (sets --payments-url and --gateway-url)
  --payments-url URL      payments and accounts API base URL
  --gateway-url URL       card gateway host
  --api payments|gateway|both       which API(s) to check (default: those with a URL)
  --profile schema|behaviour|sandbox (default schema)
  --api-key KEY           payments API key        (env PAYSPEC_VERIFY_API_KEY; default: the
                          sandbox's verification workspace, sk_sandbox_verify, emptied first)
  --allow-writes          run the behaviour and sandbox profiles in a workspace that already has
                          payments (they add payments; clocks they move are put back)
  --gateway-key KEY       gateway API key         (env PAYSPEC_VERIFY_GATEWAY_KEY)
  --gateway-secret SECRET gateway API secret      (env PAYSPEC_VERIFY_GATEWAY_SECRET)
  --seed N                seed for generated data (default 1)
  --shard i/n             run the i-th of n slices of the checks
  --only ID[,ID]          run only these checks (each failure prints the command that re-runs it)
  --include-checks P[,P]  run only checks whose id is P, starts with "P." or matches a * glob
                          (auth, negative.addPet, *.addPet)
  --exclude-checks P[,P]  leave out checks whose id is P or starts with "P." (sensitive.card-data)
  --include-operations P[,P]  call only these operations: an operationId, a method (GET), "METHOD /path"
                          or a path glob (/admin/*)
  --exclude-operations P[,P]  never call these operations (same patterns)
  --allow-destructive     (--spec) also DELETE, PUT and PATCH what this run did not create (ids the
                          server listed, settings, resets): only on a throw-away server. Without
                          it a run acts only on what it created first, and says what it left alone
  --keep-created          (--spec) leave what the run created; by default every record it made is
                          deleted at its end (and when interrupted) through the spec's own DELETE,
                          and the report lists what could not be
  --wait-for-restart S    when the target stops answering mid-run, wait up to S seconds for it to
                          come back before stopping the run (default: stop at once)
  --read-only             only GET, HEAD and OPTIONS requests, no control API, no clock moves: safe
                          on a shared server (schema profile)
  --strict-acceptance     a declared 4xx answer to a valid request fails the check (by default it is
                          counted and explained: a business rule, a credential's scope)
  --rate-limit N/s|N/m    at most N requests a second (or minute) for the whole run; 429 and 503 with
                          Retry-After are waited out and a 429 is never judged
  --retry-after-max S     the longest Retry-After waited out, three times at most (default 30); a
                          server asking for longer gets no verdict on that request, at once
  --record FILE           write every request sent, one JSON line each, credentials masked
  --junit FILE            write a JUnit XML report
  --json FILE             write a JSON report
  --timeout-ms N          per-request timeout (default 10000)
  --min-coverage N        fail when under N% of declared statuses and constraints were exercised
  --coverage              print the coverage table (it is always in the JSON report)

Model-based sequences (fast-check), shrunk to the shortest failing one:
  --stateful [--runs N] [--max-commands N]   (default 100 sequences of up to 12 requests; with
                          --profile sandbox, also clock advances, forced states,
                          dashboard submits and approvals)

Live traffic: payspec-verify proxy --listen PORT --upstream URL   (see payspec-verify proxy --help)

Consumer pacts: payspec-verify pact FILE|DIR... [--target URL]   (see payspec-verify pact --help)

Replay a --record cassette: payspec-verify replay FILE --target URL   (see payspec-verify replay --help)

Any OpenAPI 3.0 or 3.1 spec, schema-level checks only:
  --spec FILE --target URL [--header "Name: value"]... [--auth SCHEME=VALUE]... [--base-path /v1]
                          (--header repeats; use it for credentials, or --auth per security scheme
                          when operations need different ones; --auth SCHEME@OPERATIONS=VALUE
                          gives some operations their own, such as apiKey@/api/client/*=TOKEN,
                          OPERATIONS as in --include-operations. The spec's first server path
                          is put after --target unless --target already ends with it; --base-path
                          overrides it, --base-path / turns it off)

Exit codes: 0 every check passed, 1 violations found, 2 could not run.`;

/**
 * A path (report, spec) as the user meant it: relative to the directory the command was run from. Package
 * managers run scripts inside the package, and say where they were started in INIT_CWD.
 */
export function userPath(file: string, env: NodeJS.ProcessEnv): string {
  return resolve(env.INIT_CWD ?? process.cwd(), file);
}

/**
 * A credential's value as given, refused when it is empty or only a scheme word (`Bearer`): what a
 * rerun line gives when the variable it reads is not set. Sent as is, every request would be
 * refused and the run could still end "passed".
 */
function credentialValue(raw: string, flag: string, variable: string): string {
  const value = raw.trim();
  if (value === "" || /^(bearer|basic|token|digest)$/i.test(value))
    throw new UsageError(
      `${flag} has no value${value ? ` after "${value}"` : ""}: if it comes from a variable (${variable} in the printed lines), set it first, then run again.`,
    );
  return value;
}

/** Parses argv (after the script name) and env into options; throws UsageError with what to fix. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): VerifyOptions {
  const flags = new Map<string, string>();
  const headerFlags: string[] = [];
  const authFlags: string[] = [];
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") continue;
    if (!arg.startsWith("--")) throw new UsageError(`Unexpected argument "${arg}".`);
    if (
      [
        "--coverage",
        "--stateful",
        "--allow-writes",
        "--allow-destructive",
        "--read-only",
        "--strict-acceptance",
        "--keep-created",
      ].includes(arg)
    ) {
      switches.add(arg.slice(2));
      continue;
    }
    const cut = arg.indexOf("=");
    const name = cut < 0 ? arg.slice(2) : arg.slice(2, cut);
    const value = cut < 0 ? argv[++i] : arg.slice(cut + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value.`);
    if (name === "header") headerFlags.push(value);
    else if (name === "auth") authFlags.push(value);
    else flags.set(name, value);
  }
  const known = [
    "target",
    "payments-url",
    "gateway-url",
    "api",
    "profile",
    "api-key",
    "gateway-key",
    "gateway-secret",
    "seed",
    "shard",
    "only",
    "junit",
    "json",
    "timeout-ms",
    "spec",
    "min-coverage",
    "runs",
    "max-commands",
    "base-path",
    "include-checks",
    "exclude-checks",
    "include-operations",
    "exclude-operations",
    "rate-limit",
    "retry-after-max",
    "record",
    "wait-for-restart",
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new UsageError(`Unknown option --${name}.`);

  const target = flags.get("target");
  const specFile = flags.get("spec");
  if (specFile !== undefined && (flags.has("payments-url") || flags.has("gateway-url") || flags.has("api")))
    throw new UsageError("--spec checks one API at --target; leave out --payments-url, --gateway-url and --api.");
  if (specFile !== undefined && !target) throw new UsageError("--spec FILE needs --target URL.");
  if (specFile === undefined && headerFlags.length > 0)
    throw new UsageError("--header is for --spec runs; the payspec APIs take --api-key and --gateway-key.");
  const basePath = flags.get("base-path");
  if (basePath !== undefined && specFile === undefined)
    throw new UsageError("--base-path is for --spec runs; give the payspec APIs' base URL with --target.");
  if (basePath !== undefined && !basePath.startsWith("/"))
    throw new UsageError(`--base-path must start with "/" (for example /v3), not "${basePath.split("/")[0]}…".`);
  const checkList = (name: string) =>
    flags.has(name)
      ? (flags.get(name) as string)
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean)
      : undefined;
  const includeOperations = checkList("include-operations");
  const excludeOperations = checkList("exclude-operations");
  const auth: Record<string, string> = {};
  for (const pair of authFlags) {
    const eq = pair.indexOf("=");
    if (eq < 1 || pair.slice(0, eq).trim().startsWith("@") || pair.slice(0, eq).trim().endsWith("@"))
      throw new UsageError(
        `--auth must be SCHEME=VALUE or SCHEME@OPERATIONS=VALUE (a securitySchemes name of the spec), not "${pair.split("=")[0]}…".`,
      );
    const scheme = pair.slice(0, eq).trim();
    auth[scheme] = credentialValue(pair.slice(eq + 1), `--auth ${scheme}`, `$${variableFor(scheme)}`);
  }
  if (authFlags.length > 0 && specFile === undefined)
    throw new UsageError("--auth is for --spec runs; the payspec APIs take --api-key and --gateway-key.");
  const rateText = flags.get("rate-limit");
  const rateMatch = rateText === undefined ? undefined : /^(\d+(?:\.\d+)?)\/(s|m)$/.exec(rateText);
  if (rateText !== undefined && (!rateMatch || Number(rateMatch[1]) <= 0))
    throw new UsageError(
      `--rate-limit must be requests per second or minute, such as 10/s or 30/m, not "${rateText}".`,
    );
  const rateLimit = rateMatch ? Number(rateMatch[1]) / (rateMatch[2] === "m" ? 60 : 1) : undefined;
  const readOnly = switches.has("read-only");
  if (readOnly && (flags.get("profile") ?? "schema") !== "schema")
    throw new UsageError("--read-only sends only GET, HEAD and OPTIONS requests: it runs the schema profile only.");
  if (readOnly && switches.has("stateful"))
    throw new UsageError("--read-only and --stateful do not go together: a sequence writes.");
  const includeChecks = checkList("include-checks");
  const excludeChecks = checkList("exclude-checks");
  const headers: Record<string, string> = {};
  for (const header of headerFlags) {
    const colon = header.indexOf(":");
    if (colon < 1) throw new UsageError(`--header must be "Name: value", not "${header.split(":")[0]}…".`);
    const name = header.slice(0, colon).trim().toLowerCase();
    headers[name] = credentialValue(header.slice(colon + 1), `--header ${name}`, `$${variableFor(name)}`);
  }
  const paymentsUrl = specFile ? undefined : (flags.get("payments-url") ?? target);
  const gatewayUrl = specFile ? undefined : (flags.get("gateway-url") ?? target);
  const apiFlag = flags.get("api");
  const apis: ApiName[] =
    apiFlag === "both"
      ? ["payments", "gateway"]
      : apiFlag === "payments" || apiFlag === "gateway"
        ? [apiFlag]
        : apiFlag === undefined
          ? []
          : [];
  if (apiFlag !== undefined && apis.length === 0)
    throw new UsageError(`--api must be payments, gateway or both, not "${apiFlag}".`);
  if (specFile) apis.push("openapi");
  else if (apiFlag === undefined) {
    if (paymentsUrl) apis.push("payments");
    if (gatewayUrl) apis.push("gateway");
  }
  if (apis.length === 0) throw new UsageError("Give --target URL (or --payments-url / --gateway-url).");
  if (apis.includes("payments") && !paymentsUrl)
    throw new UsageError("--api payments needs --payments-url or --target.");
  if (apis.includes("gateway") && !gatewayUrl) throw new UsageError("--api gateway needs --gateway-url or --target.");

  const stateful = switches.has("stateful");
  const profile = (flags.get("profile") ?? (stateful ? "behaviour" : "schema")) as Profile;
  if (stateful && profile === "schema")
    throw new UsageError("--stateful changes state: use --profile behaviour, or sandbox for clock and forced states.");
  if (stateful && specFile)
    throw new UsageError("--stateful knows the payment rules; it does not combine with --spec.");
  const runs = Number(flags.get("runs") ?? "100");
  const maxCommands = Number(flags.get("max-commands") ?? "12");
  if (!Number.isInteger(runs) || runs < 1 || runs > 100_000) throw new UsageError("--runs must be 1 to 100000.");
  if (!Number.isInteger(maxCommands) || maxCommands < 1 || maxCommands > 200)
    throw new UsageError("--max-commands must be 1 to 200.");
  if (!PROFILES.includes(profile)) throw new UsageError(`--profile must be one of ${PROFILES.join(", ")}.`);
  const seed = Number(flags.get("seed") ?? "1");
  if (!Number.isSafeInteger(seed)) throw new UsageError("--seed must be a whole number.");
  const shardText = flags.get("shard") ?? "1/1";
  const shardMatch = /^(\d+)\/(\d+)$/.exec(shardText);
  const shard = shardMatch ? { index: Number(shardMatch[1]), count: Number(shardMatch[2]) } : undefined;
  if (!shard || shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw new UsageError(`--shard must be i/n with 1 <= i <= n, not "${shardText}".`);
  const retryAfterText = flags.get("retry-after-max");
  const retryAfterMaxMs = retryAfterText === undefined ? undefined : Number(retryAfterText) * 1000;
  if (retryAfterMaxMs !== undefined && !(retryAfterMaxMs >= 0 && /^\d+$/.test(retryAfterText ?? "")))
    throw new UsageError(`--retry-after-max must be a whole number of seconds, such as 60, not "${retryAfterText}".`);
  const waitText = flags.get("wait-for-restart");
  if (waitText !== undefined && !/^\d+$/.test(waitText))
    throw new UsageError(`--wait-for-restart must be a whole number of seconds, such as 60, not "${waitText}".`);
  if (
    waitText !== undefined &&
    specFile === undefined &&
    !target &&
    !flags.has("payments-url") &&
    !flags.has("gateway-url")
  )
    throw new UsageError("--wait-for-restart needs a target to wait for.");
  const timeoutMs = Number(flags.get("timeout-ms") ?? "10000");
  if (!(timeoutMs > 0)) throw new UsageError("--timeout-ms must be a positive number.");
  const minCoverage = flags.has("min-coverage") ? Number(flags.get("min-coverage")) : undefined;
  if (minCoverage !== undefined && !(minCoverage >= 0 && minCoverage <= 100))
    throw new UsageError("--min-coverage must be a percentage from 0 to 100.");

  const url = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    try {
      return new URL(value).toString().replace(/\/+$/, "");
    } catch {
      throw new UsageError(`${name} is not a URL: "${value}".`);
    }
  };
  return {
    ...(paymentsUrl ? { paymentsUrl: url(paymentsUrl, "--payments-url") } : {}),
    ...(gatewayUrl ? { gatewayUrl: url(gatewayUrl, "--gateway-url") } : {}),
    ...(specFile ? { specFile: userPath(specFile, env), openapiUrl: url(target, "--target"), headers } : {}),
    ...(basePath !== undefined ? { basePath: basePath.replace(/\/+$/, "") } : {}),
    ...(includeChecks ? { includeChecks } : {}),
    ...(excludeChecks ? { excludeChecks } : {}),
    ...(minCoverage !== undefined ? { minCoverage } : {}),
    ...(switches.has("coverage") ? { showCoverage: true } : {}),
    ...(switches.has("allow-writes") ? { allowWrites: true } : {}),
    ...(switches.has("allow-destructive") ? { allowDestructive: true } : {}),
    ...(switches.has("keep-created") ? { keepCreated: true } : {}),
    ...(waitText !== undefined ? { waitForRestartMs: Number(waitText) * 1000 } : {}),
    ...(readOnly ? { readOnly } : {}),
    ...(switches.has("strict-acceptance") ? { strictAcceptance: true } : {}),
    ...(includeOperations ? { includeOperations } : {}),
    ...(excludeOperations ? { excludeOperations } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(retryAfterMaxMs !== undefined ? { retryAfterMaxMs } : {}),
    ...(Object.keys(auth).length > 0 ? { auth } : {}),
    ...(flags.get("record") ? { recordFile: userPath(flags.get("record") as string, env) } : {}),
    ...(stateful ? { stateful: { runs, maxCommands } } : {}),
    apis,
    profile,
    apiKey: flags.get("api-key") ?? env.PAYSPEC_VERIFY_API_KEY ?? SANDBOX_VERIFY_API_KEY,
    gatewayKey: flags.get("gateway-key") ?? env.PAYSPEC_VERIFY_GATEWAY_KEY ?? "gw_demo_key",
    gatewaySecret: flags.get("gateway-secret") ?? env.PAYSPEC_VERIFY_GATEWAY_SECRET ?? "gw_demo_secret",
    seed,
    shard,
    ...(flags.get("only") ? { only: (flags.get("only") as string).split(",").map((id) => id.trim()) } : {}),
    ...(flags.get("junit") ? { junitFile: userPath(flags.get("junit") as string, env) } : {}),
    ...(flags.get("json") ? { jsonFile: userPath(flags.get("json") as string, env) } : {}),
    timeoutMs,
  } as VerifyOptions;
}

/**
 * A check id matches a pattern that is the id itself, a dotted prefix of it (`auth` →
 * `auth.missing.addPet`), or a glob (`*.addPet`: every check of one operation).
 */
export function matchesCheck(id: string, pattern: string): boolean {
  if (pattern.includes("*")) {
    const glob = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`^${glob.join(".*")}$`).test(id);
  }
  return id === pattern || id.startsWith(`${pattern}.`);
}

/**
 * An operation matches a pattern that is its operationId, its method (`GET`), `METHOD /path` as the
 * spec writes it, or a path glob (`/admin/*`, `DELETE /users/*`).
 */
export function matchesOperation(
  op: { operationId: string; method: string; template: string },
  pattern: string,
): boolean {
  const [first, second] = pattern.trim().split(/\s+/, 2) as [string, string | undefined];
  if (second !== undefined) return first.toUpperCase() === op.method && globMatches(op.template, second);
  if (
    /^[A-Za-z]+$/.test(first) &&
    first.toUpperCase() === first &&
    ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"].includes(first)
  )
    return op.method === first;
  if (first.startsWith("/")) return globMatches(op.template, first);
  return op.operationId === first;
}

function globMatches(text: string, glob: string): boolean {
  if (!glob.includes("*")) return text === glob;
  const parts = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`).test(text);
}

/**
 * The --auth key that gives each scheme its value for one operation: `SCHEME@OPERATIONS=VALUE`
 * (OPERATIONS as in --include-operations) wins over a plain `SCHEME=VALUE`.
 */
export function credentialKeysFor(
  auth: Readonly<Record<string, string>>,
  op: { operationId: string; method: string; template: string } | undefined,
): Record<string, string> {
  const plain: Record<string, string> = {};
  const scoped: Record<string, string> = {};
  for (const key of Object.keys(auth)) {
    const at = key.indexOf("@");
    if (at < 0) plain[key] = key;
    else if (op && matchesOperation(op, key.slice(at + 1))) scoped[key.slice(0, at)] ??= key;
  }
  return { ...plain, ...scoped };
}

/** Methods that change nothing on a server that keeps HTTP's promise (RFC 9110 §9.2.1). */
export const SAFE_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS"];

/** Methods a client may send again after a lost answer: twice has the effect of once (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: readonly string[] = [...SAFE_METHODS, "PUT", "DELETE"];

/** Whether --read-only, --include-operations and --exclude-operations let an operation be called. */
export function operationChosen(
  options: VerifyOptions,
  op: { operationId: string; method: string; template: string },
): boolean {
  if (options.readOnly && !SAFE_METHODS.includes(op.method)) return false;
  if (options.includeOperations && !options.includeOperations.some((p) => matchesOperation(op, p))) return false;
  return !options.excludeOperations?.some((p) => matchesOperation(op, p));
}

/** Whether --include-checks and --exclude-checks let a check run. */
export function checkChosen(options: VerifyOptions, id: string): boolean {
  if (options.includeChecks && !options.includeChecks.some((p) => matchesCheck(id, p))) return false;
  return !options.excludeChecks?.some((p) => matchesCheck(id, p));
}

/** An environment variable's name for a header's value in reproductions: `X-Api-Key` → `X_API_KEY`. */
export function variableFor(header: string): string {
  return (
    header
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "") || "HEADER"
  );
}

const shellQuote = (text: string) => (/^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/**
 * The flags that re-run one check exactly: where, which spec, which credentials (as $VARIABLES,
 * never their values), which profile and seed.
 */
export function rerunFlags(options: VerifyOptions, checkId: string): string {
  const flags: string[] = [];
  if (options.specFile) {
    flags.push("--spec", shellQuote(options.specFile), "--target", shellQuote(options.openapiUrl ?? ""));
    if (options.basePath !== undefined) flags.push("--base-path", shellQuote(options.basePath || "/"));
    for (const name of Object.keys(options.headers ?? {})) flags.push("--header", `"${name}: $${variableFor(name)}"`);
  } else {
    if (options.paymentsUrl && options.paymentsUrl === options.gatewayUrl)
      flags.push("--target", shellQuote(options.paymentsUrl));
    else {
      if (options.paymentsUrl) flags.push("--payments-url", shellQuote(options.paymentsUrl));
      if (options.gatewayUrl) flags.push("--gateway-url", shellQuote(options.gatewayUrl));
    }
    flags.push("--api", options.apis.length === 2 ? "both" : (options.apis[0] ?? "both"));
  }
  if (options.profile !== "schema") flags.push("--profile", options.profile);
  if (options.allowWrites) flags.push("--allow-writes");
  if (options.allowDestructive) flags.push("--allow-destructive");
  if (options.stateful)
    flags.push(
      "--stateful",
      "--runs",
      String(options.stateful.runs),
      "--max-commands",
      String(options.stateful.maxCommands),
    );
  if (options.timeoutMs !== 10_000) flags.push("--timeout-ms", String(options.timeoutMs));
  if (options.readOnly) flags.push("--read-only");
  if (options.strictAcceptance) flags.push("--strict-acceptance");
  if (options.keepCreated) flags.push("--keep-created");
  // What the run may call decides what its checks did: a rerun calls the same operations.
  if (options.includeOperations) flags.push("--include-operations", shellQuote(options.includeOperations.join(",")));
  if (options.excludeOperations) flags.push("--exclude-operations", shellQuote(options.excludeOperations.join(",")));
  for (const scheme of Object.keys(options.auth ?? {})) flags.push("--auth", `"${scheme}=$${variableFor(scheme)}"`);
  if (options.rateLimit !== undefined) flags.push("--rate-limit", `${options.rateLimit}/s`);
  if (options.retryAfterMaxMs !== undefined) flags.push("--retry-after-max", String(options.retryAfterMaxMs / 1000));
  flags.push("--seed", String(options.seed), "--only", shellQuote(checkId));
  return flags.join(" ");
}
