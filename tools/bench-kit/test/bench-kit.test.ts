import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { freePort } from "@payspec/test-postgres";
import { expect, it } from "vitest";
import {
  busyCores,
  compareHttp,
  describeMachine,
  loadProblems,
  type MachineState,
  machineLine,
  machineState,
  median,
  noVerdict,
  pairedRatio,
  parseWrkOutput,
  processCpuMs,
  processTreeCpuMs,
  runWrk,
  settledMachineState,
  startProcess,
  stolenShare,
  table,
  wrkScript,
} from "../src/index.js";

it("computes medians", () => {
  expect(median([5, 1, 3])).toBe(3);
  expect(median([4, 1, 3, 2])).toBe(2.5);
});

it("compares a target with its baseline round by round, so a slow round lowers both sides of its ratio", () => {
  // The machine slows in round 2. Two rounds' ratios say 0.5; the medians (50 and 80) come from
  // different rounds, and their ratio would say 0.625.
  expect(pairedRatio([50, 30, 60], [100, 60, 80])).toBe(0.5);
  expect(pairedRatio([60, 20, 40], [100, 100, 100])).toBe(0.4);
  expect(() => pairedRatio([1, 2], [1])).toThrow(/as many rounds/);
  expect(() => pairedRatio([], [])).toThrow(/at least one/);
});

it("formats a table with aligned columns", () => {
  expect(
    table(
      ["target", "req/s"],
      [
        ["a", 1234.4],
        ["bb", 0.5],
      ],
    ),
  ).toBe("target  req/s\na       1,234\nbb       0.50");
});

it("loads a loopback server for a bounded time and refuses other addresses", async () => {
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const [result] = await compareHttp([{ name: "tiny", url }], { seconds: 1, rounds: 1, connections: 2 });
  expect(result?.requestsPerSecond).toBeGreaterThan(0);
  expect(result?.roundsPerSecond).toEqual([result?.requestsPerSecond]);
  expect(result?.non2xx).toBe(0);
  await new Promise((resolve) => server.close(resolve));
  await expect(compareHttp([{ name: "remote", url: "http://192.168.1.1/" }])).rejects.toThrow(/loopback/);
});

it("reads a process's CPU time, and says when there is none to read", () => {
  const before = processCpuMs(process.pid) as number;
  const block = Buffer.alloc(1 << 20, 7);
  for (let i = 0; i < 200; i++) createHash("sha256").update(block).digest();
  expect(processCpuMs(process.pid)).toBeGreaterThan(before);
  // Above Linux's largest pid_max (2^22): no such process.
  expect(processCpuMs(2 ** 30)).toBeUndefined();
});

it("counts the CPU of the processes a server started, as tsx's child running a script", async () => {
  // The child hashes 128 MiB (CPU work, however it is scheduled), says so, and waits to be stopped.
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const b = Buffer.alloc(1 << 20, 7); for (let i = 0; i < 128; i++) require("node:crypto").createHash("sha256").update(b).digest(); console.log("done"); setTimeout(() => {}, 60000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await once(child.stdout, "data");
    const own = processCpuMs(process.pid) as number;
    const childMs = processCpuMs(child.pid as number) as number;
    expect(childMs).toBeGreaterThanOrEqual(30);
    expect(processTreeCpuMs([process.pid])).toBeGreaterThanOrEqual(own + childMs);
  } finally {
    child.kill();
  }
});

it("reports the CPU a target's processes spend per request, telling a server that works from one that is fast", async () => {
  // 4 MiB keeps the work (milliseconds) far above node:http's own cost per request (a tenth of a
  // millisecond, several times that on a loaded machine): 256 KiB was within a factor of 3 of it.
  const block = Buffer.alloc(4 * 1024 * 1024, 7);
  const server = createServer((req, res) => {
    // Hashing per request is CPU work, however the machine schedules it.
    if (req.url === "/work") createHash("sha256").update(block).digest();
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const [working, light, unwatched] = await compareHttp(
    [
      { name: "working", url: `${base}/work`, pids: [process.pid] },
      { name: "light", url: `${base}/`, pids: [process.pid] },
      { name: "unwatched", url: `${base}/` },
    ],
    { seconds: 1, rounds: 1, connections: 2 },
  );
  await new Promise((resolve) => server.close(resolve));
  expect(working?.serverCpuUsPerRequest).toBeGreaterThan(3 * (light?.serverCpuUsPerRequest as number));
  expect(light?.serverCpuUsPerRequest).toBeGreaterThan(0);
  expect(unwatched?.serverCpuUsPerRequest).toBeUndefined();
  // Linux reports steal time for every core, zero on bare metal: each target carries its share.
  for (const result of [working, light, unwatched]) {
    expect(result?.stolenShare).toBeGreaterThanOrEqual(0);
    expect(result?.stolenShare).toBeLessThanOrEqual(1);
  }
});

it("voids a run whose baseline wrk held back, or whose cores were busy before the load", () => {
  const quiet: MachineState = { cores: 2, load: [0.1, 0.1, 0.1], idle: { 0: 0.99, 1: 0.97 } };
  const result = { name: "base", requestsPerSecond: 40_000, roundsPerSecond: [40_000], p99Ms: 1, non2xx: 0 };
  expect(loadProblems(quiet, [{ name: "base", result: { ...result, generatorCpu: 0.55 } }])).toEqual([]);
  const problems = loadProblems({ ...quiet, idle: { 0: 0.99, 1: 0.4 } }, [
    { name: "base", result: { ...result, generatorCpu: 0.95 } },
  ]);
  expect(problems).toEqual([
    "wrk used 95% of its core against base: the generator, not the server, set the pace",
    "core 1 was only 40% idle before the run",
  ]);
  expect(noVerdict(problems)).toBe(
    "No verdict: wrk used 95% of its core against base: the generator, not the server, set the pace; core 1 was only 40% idle before the run. Every ratio above is void; run again on a quiet machine.",
  );
  expect(machineLine({ ...quiet, waitedMs: 2400 })).toBe(
    "Machine: 2 cores, load 0.10 0.10 0.10; before the run: core 0 99% idle, core 1 97% idle (sampled after 2 s for the servers to settle)",
  );
});

it("voids a run when the hypervisor took a share of a core while a baseline or a measured target ran", () => {
  const quiet: MachineState = { cores: 2, load: [0.1, 0.1, 0.1], idle: { 0: 0.99, 1: 0.97 } };
  const result = { requestsPerSecond: 40_000, roundsPerSecond: [40_000], p99Ms: 1, non2xx: 0, generatorCpu: 0.5 };
  const base = { name: "base", result: { ...result, name: "base", stolenShare: 0.01 } };
  expect(loadProblems(quiet, [base], [base.result, { ...result, name: "sandbox", stolenShare: 0.05 }])).toEqual([]);
  const robbed = [
    { ...base.result, stolenShare: 0.09 },
    { ...result, name: "sandbox", stolenShare: 0.31 },
    { ...result, name: "mock", stolenShare: 0.02 },
  ];
  expect(loadProblems(quiet, [base], robbed)).toEqual([
    "the host's hypervisor took a share of a core from this machine while rows ran (steal time, median round: base 9%, sandbox 31%): other guests on the host, not the servers, set part of their pace",
  ]);
});

it("finds the largest share of a core's time the hypervisor took between two readings", () => {
  const before = new Map([
    [0, { idle: 100, stolen: 10, total: 1_000 }],
    [1, { idle: 100, stolen: 10, total: 1_000 }],
  ]);
  const after = new Map([
    [0, { idle: 150, stolen: 12, total: 1_100 }],
    [1, { idle: 120, stolen: 40, total: 1_100 }],
  ]);
  expect(stolenShare(before, after)).toBeCloseTo(0.3);
  expect(stolenShare(before, after, [0])).toBeCloseTo(0.02);
  expect(stolenShare(before, after, [7])).toBeUndefined();
});

it("writes wrk's request script so that any header or body text arrives as it is", () => {
  const script = wrkScript({ method: "POST", headers: { authorization: "Bearer k]]" }, body: '{"a":"]]]=]"}' });
  expect(script).toContain("wrk.method = [[POST]]");
  expect(script).toContain("wrk.headers[ [[authorization]] ] = [=[Bearer k]]]=]");
  expect(script).toContain('wrk.body = [==[{"a":"]]]=]"}]==]');
});

it("reads req/s, the 99th percentile and failures from wrk's report", () => {
  const report = `Running 3s test @ http://127.0.0.1:1/
  1 threads and 16 connections
  Latency Distribution
     50%  400.00us
     99%    1.50ms
  30000 requests in 3.00s, 5.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  10000.50
Transfer/sec:      1.67MB
`;
  expect(parseWrkOutput(report)).toEqual({ requestsPerSecond: 10000.5, p99Ms: 1.5, failures: 10 });
  expect(parseWrkOutput("Requests/sec: 5\n     99%  2.00s\n").p99Ms).toBe(2000);
  expect(() => parseWrkOutput("nothing")).toThrow(/Requests\/sec/);
});

it("drives a real server with wrk in its own process, POST bodies included", async () => {
  let bodies = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (body === '{"x":1}' && req.headers["x-test"] === "yes") bodies++;
      res.writeHead(req.method === "POST" ? 201 : 404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const result = await runWrk({
    url,
    method: "POST",
    headers: { "x-test": "yes" },
    body: '{"x":1}',
    seconds: 1,
    connections: 2,
  });
  expect(result.requestsPerSecond).toBeGreaterThan(0);
  expect(result.failures).toBe(0);
  expect(bodies).toBeGreaterThan(0);
  // wrk's own CPU is measured (a share of one core), so a run can tell when the generator set the pace.
  expect(result.generatorCpu).toBeGreaterThan(0);
  expect(result.generatorCpu).toBeLessThanOrEqual(1.05);
  const missing = await runWrk({ url, seconds: 1, connections: 2 });
  expect(missing.failures).toBeGreaterThan(0);
  await new Promise((resolve) => server.close(resolve));
});

it("takes the paths it is given in turn, in place of the URL's own", async () => {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    seen.set(req.url ?? "", (seen.get(req.url ?? "") ?? 0) + 1);
    res.writeHead(req.headers["x-test"] === "yes" ? 200 : 400).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ignored`;
  const paths = ["/v1/payments/a", "/v1/payments/b%20c", "/v1/payments/d?x=]]"];
  const [result] = await compareHttp([{ name: "paths", url, headers: { "x-test": "yes" }, paths }], {
    seconds: 1,
    rounds: 1,
    connections: 2,
  });
  expect(result?.non2xx).toBe(0);
  expect([...seen.keys()].sort()).toEqual([...paths].sort());
  // In turn: each path about as often as the others.
  const counts = paths.map((path) => seen.get(path) ?? 0);
  expect(Math.min(...counts)).toBeGreaterThan(Math.max(...counts) * 0.8);
  await new Promise((resolve) => server.close(resolve));
});

it("describes the machine a benchmark runs on: cores, load, and each core's idle share before the run", async () => {
  const state = await machineState(200);
  expect(state.cores).toBeGreaterThan(0);
  expect(Object.keys(state.idle).length).toBeGreaterThanOrEqual(1);
  for (const share of Object.values(state.idle)) expect(share >= 0 && share <= 1).toBe(true);
  expect(describeMachine(state)).toMatch(/^\d+ cores, load [\d.]+ [\d.]+ [\d.]+; before the run: core 0 \d+% idle/);
});

it("waits for the cores to settle before describing the machine, and no longer than it is allowed", async () => {
  // Every core is at least 0% idle: the first sample is the answer.
  const atOnce = await settledMachineState(0, { cores: [0], sampleMs: 100, maxMs: 1000 });
  expect(atOnce.waitedMs).toBeLessThan(1000);
  expect(atOnce.idle[0]).toBeGreaterThanOrEqual(0);
  // No core is ever more than 100% idle: it samples until its time is up (it returns: the test ends),
  // then gives the last sample.
  const never = await settledMachineState(1.01, { cores: [0], sampleMs: 100, maxMs: 450 });
  expect(never.waitedMs).toBeGreaterThanOrEqual(350);
  expect(never.idle[0]).toBeLessThanOrEqual(1);
  expect(busyCores(never, 1.01, [0])).toEqual([{ core: 0, idle: never.idle[0] }]);
  expect(busyCores(never, 0)).toEqual([]);
});

it("starts a server pinned to its core and gives its own pid, for reading what it uses", async () => {
  const port = await freePort();
  const server = `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`;
  const stop = await startProcess(process.execPath, ["-e", server], `http://127.0.0.1:${port}/`, { pinned: true });
  try {
    // The pid is node's, not a wrapper's (taskset execs the command): its command line is node's.
    const commandLine = readFileSync(`/proc/${stop.pid}/cmdline`, "utf8").split("\0");
    expect(commandLine[0]).toBe(process.execPath);
    expect(readFileSync(`/proc/${stop.pid}/status`, "utf8")).toMatch(/^VmRSS:\s+\d+ kB$/m);
  } finally {
    stop();
  }
});
