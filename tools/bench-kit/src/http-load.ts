import autocannon from "autocannon";
import { cpuPinning } from "./cpu-pinning.js";
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
      seconds,
      connections,
    });
  }
  const result = await autocannon({
    url,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    ...(target.body ? { body: target.body } : {}),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors,
  };
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
  const samples = new Map<string, { rps: number[]; p99: number[]; non2xx: number; cpu: number[] }>(
    targets.map((t) => [t.name, { rps: [], p99: [], non2xx: 0, cpu: [] }]),
  );
  // One short unmeasured run each first: a server's first seconds measure its JIT, not its steady state.
  for (const target of targets) {
    await Promise.all(urlsOf(target).map((url) => loadOnce(url, target, 1, connections)));
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const urls = urlsOf(target);
      const results = await Promise.all(
        urls.map((url) => loadOnce(url, target, seconds, Math.max(1, Math.round(connections / urls.length)))),
      );
      const sample = samples.get(target.name);
      if (!sample) continue;
      sample.rps.push(results.reduce((sum, r) => sum + r.requestsPerSecond, 0));
      sample.p99.push(Math.max(...results.map((r) => r.p99Ms)));
      sample.non2xx += results.reduce((sum, r) => sum + r.failures, 0);
      for (const r of results) if (r.generatorCpu !== undefined) sample.cpu.push(r.generatorCpu);
    }
  }
  return targets.map((t) => {
    const s = samples.get(t.name) as { rps: number[]; p99: number[]; non2xx: number; cpu: number[] };
    return {
      name: t.name,
      requestsPerSecond: median(s.rps),
      roundsPerSecond: s.rps,
      p99Ms: median(s.p99),
      non2xx: s.non2xx,
      ...(s.cpu.length > 0 ? { generatorCpu: median(s.cpu) } : {}),
    };
  });
}
