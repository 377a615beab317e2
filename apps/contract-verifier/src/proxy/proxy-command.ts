import { loadAnySpec, UnusableSpec } from "../any-spec.js";
import type { Violation } from "../check.js";
import { UsageError, userPath } from "../options.js";
import { closingLine } from "../reporters/console-reporter.js";
import { writeJson, writeJunit } from "../reporters/file-reporters.js";
import { countByStatus, type VerificationReport } from "../runner.js";
import { startValidatingProxy } from "./validating-proxy.js";

export const PROXY_USAGE = `payspec verify proxy: check live traffic between an application and a provider

  --listen PORT        port to listen on, on 127.0.0.1 (0 picks a free one)
  --upstream URL       the provider (both payspec APIs on one base URL, as the sandbox serves them)
  --spec FILE          check against this OpenAPI 3.0/3.1 spec instead of the payspec specs
  --json FILE          write a JSON report when stopped
  --junit FILE         write a JUnit XML report when stopped

Every request and answer passes through unchanged. Each violation is printed as it happens; on
SIGINT or SIGTERM the reports are written and the exit code is 1 if any answer broke the spec.`;

interface ProxyOptions {
  readonly port: number;
  readonly upstream: string;
  readonly specFile?: string;
  readonly jsonFile?: string;
  readonly junitFile?: string;
}

function parseProxyOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ProxyOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith("--")) throw new UsageError(`Unexpected argument "${arg}".`);
    const cut = arg.indexOf("=");
    const name = cut < 0 ? arg.slice(2) : arg.slice(2, cut);
    const value = cut < 0 ? argv[++i] : arg.slice(cut + 1);
    if (!["listen", "upstream", "spec", "json", "junit"].includes(name))
      throw new UsageError(`Unknown option --${name}.`);
    if (value === undefined) throw new UsageError(`--${name} needs a value.`);
    flags.set(name, value);
  }
  const port = Number(flags.get("listen"));
  if (!flags.has("listen") || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--listen PORT is needed: a port from 0 to 65535.");
  const upstream = flags.get("upstream");
  if (!upstream) throw new UsageError("--upstream URL is needed: where the provider is.");
  try {
    new URL(upstream);
  } catch {
    throw new UsageError(`--upstream is not a URL: "${upstream}".`);
  }
  return {
    port,
    upstream,
    ...(flags.has("spec") ? { specFile: userPath(flags.get("spec") as string, env) } : {}),
    ...(flags.has("json") ? { jsonFile: userPath(flags.get("json") as string, env) } : {}),
    ...(flags.has("junit") ? { junitFile: userPath(flags.get("junit") as string, env) } : {}),
  };
}

/** One line per violation while traffic flows; the reports carry the request and its reproduction. */
function violationLine(v: Violation): string {
  return `✗ ${v.check}  ${v.operation}: ${v.actual}`;
}

/** `payspec-verify proxy …`: runs until SIGINT/SIGTERM; resolves with the exit code. */
export async function runProxyCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parseProxyOptions(argv, env);
  let spec: object | undefined;
  if (options.specFile) {
    try {
      spec = await loadAnySpec(options.specFile);
    } catch (error) {
      if (error instanceof UnusableSpec) throw new UsageError(error.message);
      throw error;
    }
  }
  const startedAt = new Date();
  const proxy = await startValidatingProxy({
    port: options.port,
    upstream: options.upstream,
    ...(spec ? { spec } : {}),
    onViolation: (v: Violation) => process.stdout.write(`${violationLine(v)}\n`),
  });
  process.stdout.write(`payspec verify proxy: listening on ${proxy.url}, forwarding to ${options.upstream}\n`);
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  await proxy.close();
  const results = proxy.results();
  const counts = countByStatus(results);
  const report: VerificationReport = {
    mode: "proxy",
    target: { [spec ? "openapi" : "payments"]: options.upstream },
    ...(options.specFile ? { spec: options.specFile } : {}),
    profile: "schema",
    seed: 0,
    shard: "1/1",
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    results,
    counts,
  };
  if (options.jsonFile) await writeJson(report, options.jsonFile);
  if (options.junitFile) await writeJunit(report, options.junitFile);
  const exchanges = results.reduce((n, r) => n + r.requests, 0);
  process.stdout.write(`\n${signal}: ${exchanges} exchanges checked. ${closingLine(counts)}\n`);
  return counts.failed > 0 ? 1 : 0;
}
