import autocannon from "autocannon";
import { cpuPinning, judgedCores } from "./cpu-pinning.js";
import { readCoreTimes, stolenShare } from "./machine-state.js";
import { processTreeCpuMs } from "./process-cpu.js";
import { median } from "./stats.js";
import { type LoadResult, runWrk, wrkAvailable } from "./wrk.js";

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
  /**
   * Paths the requests take in turn, in place of the URL's own: reads of many records rather than of
   * one, so that nothing that serves repeats of one key (a cache, reads batched by key) flatters the figure.
   */
  readonly paths?: readonly string[];
  /**
   * The processes that answer this target: their CPU time per answered request is then reported
   * (Linux), which tells a server that works more per request from one that waits more.
   */
  readonly pids?: readonly number[];
}

export interface HttpResult {
  readonly name: string;
  readonly requestsPerSecond: number;
  /** Each round's req/s, in round order: for `pairedRatio` against a baseline of the same run. */
  readonly roundsPerSecond: readonly number[];
  readonly p99Ms: number;
  readonly non2xx: number;
  /** wrk's median CPU over the rounds, as a share of one core (see LoadResult); absent with autocannon. */
  readonly generatorCpu?: number;
  /**
   * The median over the rounds of the target's processes' CPU time (user and system, every thread)
   * per request answered, in µs; absent without `pids` or /proc.
   */
  readonly serverCpuUsPerRequest?: number;
  /**
   * The median over the rounds of the largest share of time the hypervisor took from wrk's core or
   * the servers' (every core where nothing is pinned) while this target was loaded; absent without
   * /proc/stat. Time stolen by another guest on the host slows whatever was running then.
   */
  readonly stolenShare?: number;
}

/** The load generator in use: wrk in its own process where installed, else autocannon inside Node. */
export function loadGenerator(): { readonly name: "wrk" | "autocannon"; readonly description: string } {
  const pinning = cpuPinning();
  if (!wrkAvailable()) {
    return {
      name: "autocannon",
      description:
        "autocannon inside this Node process, sharing the cores with the servers (wrk is not installed: scripts/install-system-deps.sh installs it); ratios hold, absolute req/s are understated",
    };
  }
  return {
    name: "wrk",
    description: pinning.available
      ? `wrk in its own process on core ${pinning.loadCore}, servers pinned to core ${pinning.serverCore}`
      : `wrk in its own process, not pinned (${pinning.reason})`,
  };
}

async function loadOnce(url: string, target: HttpTarget, seconds: number, connections: number): Promise<LoadResult> {
  if (loadGenerator().name === "wrk") {
    return runWrk({
      url,
      method: target.method ?? "GET",
      headers: target.headers ?? {},
      ...(target.body !== undefined ? { body: target.body } : {}),
      ...(target.paths ? { paths: target.paths } : {}),
      seconds,
      connections,
    });
  }
  const result = await autocannon({
    url,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    ...(target.body ? { body: target.body } : {}),
    ...(target.paths ? { requests: target.paths.map((path) => ({ path })) } : {}),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors,
  };
}

/** One target's figures, round by round. */
interface RoundSamples {
  readonly rps: number[];
  readonly p99: number[];
  non2xx: number;
  /** wrk's CPU share of its core, one per wrk run. */
  readonly cpu: number[];
  /** The target's processes' CPU µs per request, one per round. */
  readonly serverUs: number[];
  /** The share of a judged core's time stolen by the hypervisor, one per round. */
  readonly stolen: number[];
}

/**
 * Loads each target for a fixed, short time (bounded: a 1 s warm-up plus `seconds` × `rounds` per
 * target, loopback only), interleaving targets round by round so machine noise hits all of them alike, and reports
 * the median req/s and p99 latency per target.
 */
export async function compareHttp(
  targets: readonly HttpTarget[],
  options: { seconds?: number; rounds?: number; connections?: number } = {},
): Promise<HttpResult[]> {
  const { seconds = 3, rounds = 5, connections = 16 } = options;
  const urlsOf = (target: HttpTarget) => (typeof target.url === "string" ? [target.url] : target.url);
  for (const url of targets.flatMap(urlsOf)) {
    if (!new URL(url).hostname.match(/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/))
      throw new Error(`Benchmarks only load loopback addresses, not ${url}.`);
  }
  const samples = new Map<string, RoundSamples>(
    targets.map((t) => [t.name, { rps: [], p99: [], non2xx: 0, cpu: [], serverUs: [], stolen: [] }]),
  );
  // One short unmeasured run each first: a server's first seconds measure its JIT, not its steady state.
  for (const target of targets) {
    await Promise.all(urlsOf(target).map((url) => loadOnce(url, target, 1, connections)));
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const urls = urlsOf(target);
      const serverMsBefore = target.pids ? processTreeCpuMs(target.pids) : undefined;
      const coresBefore = readCoreTimes();
      const results = await Promise.all(
        urls.map((url) => loadOnce(url, target, seconds, Math.max(1, Math.round(connections / urls.length)))),
      );
      const serverMsAfter = target.pids ? processTreeCpuMs(target.pids) : undefined;
      const stolen = stolenShare(coresBefore, readCoreTimes(), judgedCores());
      const sample = samples.get(target.name);
      if (!sample) continue;
      if (stolen !== undefined) sample.stolen.push(stolen);
      const rps = results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
      sample.rps.push(rps);
      if (serverMsBefore !== undefined && serverMsAfter !== undefined && rps > 0) {
        sample.serverUs.push(((serverMsAfter - serverMsBefore) * 1000) / (rps * seconds));
      }
      sample.p99.push(Math.max(...results.map((r) => r.p99Ms)));
      sample.non2xx += results.reduce((sum, r) => sum + r.failures, 0);
      for (const r of results) if (r.generatorCpu !== undefined) sample.cpu.push(r.generatorCpu);
    }
  }
  return targets.map((t) => {
    const s = samples.get(t.name) as RoundSamples;
    return {
      name: t.name,
      requestsPerSecond: median(s.rps),
      roundsPerSecond: s.rps,
      p99Ms: median(s.p99),
      non2xx: s.non2xx,
      ...(s.cpu.length > 0 ? { generatorCpu: median(s.cpu) } : {}),
      ...(s.serverUs.length === rounds ? { serverCpuUsPerRequest: median(s.serverUs) } : {}),
      ...(s.stolen.length === rounds ? { stolenShare: median(s.stolen) } : {}),
    };
  });
}
