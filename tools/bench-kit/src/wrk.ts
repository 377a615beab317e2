import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { cpuPinning } from "./cpu-pinning.js";

const run = promisify(execFile);

export interface LoadRequest {
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Paths the requests take in turn, in place of the URL's own (see HttpTarget.paths). */
  readonly paths?: readonly string[];
  readonly seconds: number;
  readonly connections: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  /** Answers outside 2xx/3xx plus socket errors (connect, read, write, timeout). */
  readonly failures: number;
  /**
   * The load generator's own CPU over the run, as a share of one core (wrk's user + system time over
   * the run's length). Near 1, wrk itself set the pace: the server's rate is a floor, not a figure.
   */
  readonly generatorCpu?: number;
}

let installed: boolean | undefined;

/** Whether Debian's `wrk` is installed (scripts/install-system-deps.sh installs it); asked once per process. */
export function wrkAvailable(): boolean {
  installed ??= spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
  return installed;
}

/** A Lua string literal holding any text (long brackets with a level no text can close early). */
function luaString(text: string): string {
  let level = 0;
  while (text.includes(`]${"=".repeat(level)}]`)) level++;
  const eq = "=".repeat(level);
  // A long bracket drops a newline right after the opening; a leading one is kept by doubling it.
  return `[${eq}[${text.startsWith("\n") ? "\n" : ""}${text}]${eq}]`;
}

/**
 * wrk's Lua script: method, headers and body, the same on every request; with `paths`, each
 * connection's requests take them in turn.
 */
export function wrkScript(request: Pick<LoadRequest, "method" | "headers" | "body" | "paths">): string {
  const lines = [`wrk.method = ${luaString(request.method ?? "GET")}`];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    // The spaces matter: `headers[[[x]]]` would read as a call with a long string.
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  }
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  if (request.paths?.length) {
    // Built once: wrk.format per request costs wrk a little CPU, which the run's check of wrk reports.
    lines.push(`local paths = { ${request.paths.map(luaString).join(", ")} }`);
    lines.push("local turn = 0");
    lines.push("request = function()");
    lines.push("  turn = turn % #paths + 1");
    lines.push("  return wrk.format(nil, paths[turn])");
    lines.push("end");
  }
  return `${lines.join("\n")}\n`;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** A wrk duration ("812.00us", "1.23ms", "2.00s") in ms. */
function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  return match ? Number(match[1]) * (UNIT_MS[match[2] as string] as number) : Number.NaN;
}

/** What a run of `wrk --latency` printed, as numbers. */
export function parseWrkOutput(output: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!rps) throw new Error(`wrk printed no Requests/sec line:\n${output}`);
  const p99 = /^\s*99%\s+(\S+)/m.exec(output);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(rps[1]),
    p99Ms: p99 ? durationMs(p99[1] as string) : Number.NaN,
    failures: Number(non2xx?.[1] ?? 0) + socketErrors,
  };
}

/**
 * One bounded run of wrk (one thread, `seconds` long) in its own process, pinned to the load core
 * when the machine allows, so that load generation never competes with the server for its core.
 */
export async function runWrk(request: LoadRequest): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "payspec-wrk-"));
  try {
    const script = join(dir, "request.lua");
    writeFileSync(script, wrkScript(request));
    const wrkArgs = [
      "-t1",
      `-c${request.connections}`,
      `-d${request.seconds}s`,
      `--timeout`,
      "5s",
      "--latency",
      "-s",
      script,
      request.url,
    ];
    const pinning = cpuPinning();
    const command = pinning.available
      ? ["taskset", "-c", String(pinning.loadCore), "wrk", ...wrkArgs]
      : ["wrk", ...wrkArgs];
    // bash's own `time` gives wrk's CPU (user and system seconds) on stderr, with no extra package.
    const quoted = command.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
    const { stdout, stderr } = await run("bash", ["-c", `TIMEFORMAT='payspec-wrk-cpu %U %S'; time ${quoted}`], {
      timeout: (request.seconds + 30) * 1000,
    });
    const cpu = /payspec-wrk-cpu ([\d.]+) ([\d.]+)/.exec(stderr);
    const result = parseWrkOutput(stdout);
    return cpu ? { ...result, generatorCpu: (Number(cpu[1]) + Number(cpu[2])) / request.seconds } : result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
