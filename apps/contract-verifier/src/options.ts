import { resolve } from "node:path";
export type ApiName = "payments" | "gateway";
export type Profile = "schema" | "behaviour" | "sandbox";

/** Everything a verification run needs to know. */
export interface VerifyOptions {
  /** Base URL of the payments and accounts API (without /v1). */
  readonly paymentsUrl?: string;
  /** Gateway host (login at <host>/auth/login, the rest under <host>/api/v1). */
  readonly gatewayUrl?: string;
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
  /** Per-request timeout in ms. */
  readonly timeoutMs: number;
}

export class UsageError extends Error {}

const PROFILES: readonly Profile[] = ["schema", "behaviour", "sandbox"];

export const USAGE = `payspec verify: check a running provider against the payspec specs

  --target URL            base URL serving both APIs (sets --payments-url and --gateway-url)
  --payments-url URL      payments and accounts API base URL
  --gateway-url URL       card gateway host
  --api payments|gateway|both       which API(s) to check (default: those with a URL)
  --profile schema|behaviour|sandbox (default schema)
  --api-key KEY           payments API key        (env PAYSPEC_VERIFY_API_KEY)
  --gateway-key KEY       gateway API key         (env PAYSPEC_VERIFY_GATEWAY_KEY)
  --gateway-secret SECRET gateway API secret      (env PAYSPEC_VERIFY_GATEWAY_SECRET)
  --seed N                seed for generated data (default 1)
  --shard i/n             run the i-th of n slices of the checks
  --only ID[,ID]          run only these checks (each failure prints the --seed/--only to re-run it)
  --junit FILE            write a JUnit XML report
  --json FILE             write a JSON report
  --timeout-ms N          per-request timeout (default 10000)

Exit codes: 0 every check passed, 1 violations found, 2 could not run.`;

/** Parses argv (after the script name) and env into options; throws UsageError with what to fix. */
/**
 * A report path as the user meant it: relative to the directory the command was run from. Package
 * managers run scripts inside the package, and say where they were started in INIT_CWD.
 */
function reportPath(file: string, env: NodeJS.ProcessEnv): string {
  return resolve(env.INIT_CWD ?? process.cwd(), file);
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): VerifyOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") continue;
    if (!arg.startsWith("--")) throw new UsageError(`Unexpected argument "${arg}".`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value.`);
    flags.set(name, value);
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
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new UsageError(`Unknown option --${name}.`);

  const target = flags.get("target");
  const paymentsUrl = flags.get("payments-url") ?? target;
  const gatewayUrl = flags.get("gateway-url") ?? target;
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
  if (apiFlag === undefined) {
    if (paymentsUrl) apis.push("payments");
    if (gatewayUrl) apis.push("gateway");
  }
  if (apis.length === 0) throw new UsageError("Give --target URL (or --payments-url / --gateway-url).");
  if (apis.includes("payments") && !paymentsUrl)
    throw new UsageError("--api payments needs --payments-url or --target.");
  if (apis.includes("gateway") && !gatewayUrl) throw new UsageError("--api gateway needs --gateway-url or --target.");

  const profile = (flags.get("profile") ?? "schema") as Profile;
  if (!PROFILES.includes(profile)) throw new UsageError(`--profile must be one of ${PROFILES.join(", ")}.`);
  const seed = Number(flags.get("seed") ?? "1");
  if (!Number.isSafeInteger(seed)) throw new UsageError("--seed must be a whole number.");
  const shardText = flags.get("shard") ?? "1/1";
  const shardMatch = /^(\d+)\/(\d+)$/.exec(shardText);
  const shard = shardMatch ? { index: Number(shardMatch[1]), count: Number(shardMatch[2]) } : undefined;
  if (!shard || shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw new UsageError(`--shard must be i/n with 1 <= i <= n, not "${shardText}".`);
  const timeoutMs = Number(flags.get("timeout-ms") ?? "10000");
  if (!(timeoutMs > 0)) throw new UsageError("--timeout-ms must be a positive number.");

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
    apis,
    profile,
    apiKey: flags.get("api-key") ?? env.PAYSPEC_VERIFY_API_KEY ?? "sk_sandbox_demo_1",
    gatewayKey: flags.get("gateway-key") ?? env.PAYSPEC_VERIFY_GATEWAY_KEY ?? "gw_demo_key",
    gatewaySecret: flags.get("gateway-secret") ?? env.PAYSPEC_VERIFY_GATEWAY_SECRET ?? "gw_demo_secret",
    seed,
    shard,
    ...(flags.get("only") ? { only: (flags.get("only") as string).split(",").map((id) => id.trim()) } : {}),
    ...(flags.get("junit") ? { junitFile: reportPath(flags.get("junit") as string, env) } : {}),
    ...(flags.get("json") ? { jsonFile: reportPath(flags.get("json") as string, env) } : {}),
    timeoutMs,
  } as VerifyOptions;
}
