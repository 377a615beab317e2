import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/** The middle value: robust to one noisy round. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median wall time in ms of `rounds` runs of `fn`, after one warm-up run. */
export async function medianMs(rounds: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

export interface HttpTarget {
  readonly name: string;
  /**
   * Several URLs: instances behind one load balancer. The connections are spread evenly across them,
   * req/s are added up and the p99 is the worst instance's.
   */
  readonly url: string | readonly string[];
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface HttpResult {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

/**
 * Loads each target for a fixed, short time (bounded: `seconds` × `rounds` per target, loopback
 * only), interleaving targets round by round so machine noise hits all of them alike, and reports
 * the median req/s and p99 latency per target.
 */
export async function compareHttp(
  targets: readonly HttpTarget[],
  options: { seconds?: number; rounds?: number; connections?: number } = {},
): Promise<HttpResult[]> {
  const { seconds = 4, rounds = 3, connections = 16 } = options;
  const urlsOf = (target: HttpTarget) => (typeof target.url === "string" ? [target.url] : target.url);
  for (const url of targets.flatMap(urlsOf)) {
    if (!new URL(url).hostname.match(/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/))
      throw new Error(`Benchmarks only load loopback addresses, not ${url}.`);
  }
  const samples = new Map<string, { rps: number[]; p99: number[]; non2xx: number }>(
    targets.map((t) => [t.name, { rps: [], p99: [], non2xx: 0 }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const urls = urlsOf(target);
      const results = await Promise.all(
        urls.map((url) =>
          autocannon({
            url,
            method: target.method ?? "GET",
            headers: target.headers ?? {},
            ...(target.body ? { body: target.body } : {}),
            connections: Math.max(1, Math.round(connections / urls.length)),
            duration: seconds,
          }),
        ),
      );
      const sample = samples.get(target.name);
      if (!sample) continue;
      sample.rps.push(results.reduce((sum, r) => sum + r.requests.average, 0));
      sample.p99.push(Math.max(...results.map((r) => r.latency.p99)));
      sample.non2xx += results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    }
  }
  return targets.map((t) => {
    const s = samples.get(t.name) as { rps: number[]; p99: number[]; non2xx: number };
    return { name: t.name, requestsPerSecond: median(s.rps), p99Ms: median(s.p99), non2xx: s.non2xx };
  });
}

/** A plain-text table, right-aligned numbers. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows].map((r) => r.map((c) => (typeof c === "number" ? formatNumber(c) : c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  "))
    .join("\n");
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return "—";
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toFixed(2);
}

/** Starts a command and waits until `ready(url)` answers; the returned stop kills it. */
export async function startProcess(
  command: string,
  args: readonly string[],
  ready: string,
  env: NodeJS.ProcessEnv = {},
): Promise<() => void> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: "ignore" });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      await fetch(ready);
      return () => child.kill("SIGTERM");
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`${command} ${args.join(" ")} did not answer at ${ready} within 60 s.`);
}

/**
 * The command-line entry of an installed workspace package (its `bin`), for starting it as a user
 * would: `binPath("@payspec/sandbox", import.meta.resolve)`.
 */
export function binPath(pkg: string, resolve: (specifier: string) => string): string {
  const manifestUrl = resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(new URL(manifestUrl), "utf8")) as { bin?: Record<string, string> };
  const bin = Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${pkg} has no bin in its package.json.`);
  return fileURLToPath(new URL(bin, manifestUrl));
}
