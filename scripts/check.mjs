// `pnpm check`: every gate a change must pass, phase by phase, then where the time went: each phase's
// wall time and the ten slowest test files (read from vitest's own lines as turbo prints them).
// Stops after the first phase that fails (its commands all finish), with its exit code.
import { execFileSync, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The four longest suites: each waits on servers, browsers, containers and npm more than on a core. */
const LONG_SUITES = ["@payspec/sandbox", "@payspec/contract-verifier", "@payspec/consumer-test", "@payspec/deploy"];
const only = (flag) => LONG_SUITES.map((name) => `--filter=${flag}${name}`).join(" ");

/**
 * Each phase is one command, or several run at once. Everything is built first; then the longest
 * suites start at once beside the rest (`--only`: nothing is built again), instead of waiting behind
 * the builds and the short suites turbo happens to schedule first, which cost four to six minutes.
 * `--continue`: one failing suite does not stop the others, so one run shows every failure.
 * Types are one `tsc` over the whole workspace (tsconfig.json): 25 programs each reading Node's, Fastify's
 * and zod's types cost 160 CPU seconds, one program about 45. Likewise one `biome check .` for the whole
 * repository (2 CPU seconds) instead of one per package (about 45 with pnpm's and turbo's start-ups).
 */
const PHASES = [
  ["generated code is current", ["pnpm generate --check"]],
  ["builds (ESM, CJS, types, publint, attw)", ["turbo run build --concurrency=3"]],
  [
    "lint, types and tests (the published tarballs' among them)",
    [
      `turbo run test --only --continue --concurrency=4 ${only("")}`,
      `biome check . && turbo run lint typecheck --only --continue --concurrency=2 && tsc -p tsconfig.json && turbo run test --only --continue --concurrency=2 ${only("!")}`,
    ],
  ],
  ["the breaking-change gate", ["pnpm spec:diff"]],
];

// "@payspec/sandbox:test:  ✓  postgres  test/deep-json.test.ts (3 tests) 476ms"
const FILE_LINE =
  /^(@payspec\/[\w-]+):test:\s+[✓❯×]\s+(?:(\w+)\s+)?(\S+\.test\.[cm]?tsx?)\s+\((\d+) tests?[^)]*\)\s+([\d.]+)(ms|s)\s*$/;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

// "@payspec/sandbox:test:  FAIL   memory  test/x.test.ts > a suite > a test": vitest's failure report,
// whose next lines name the error. CI shows only a run's tail, where the failures must therefore be.
const FAIL_LINE = /^(@payspec\/[\w-]+):test:\s+FAIL\s+(.*)$/;
const LINES_PER_FAILURE = 4;

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const files = [];
    const failures = [];
    let failureLinesLeft = 0;
    let rest = "";
    const scan = (chunk) => {
      const text = rest + chunk.toString("utf8");
      const lines = text.split("\n");
      rest = lines.pop() ?? "";
      for (const raw of lines) {
        const line = raw.replace(ANSI, "");
        const m = FILE_LINE.exec(line);
        if (m)
          files.push({
            where: `${m[1]} ${m[2] ? `(${m[2]}) ` : ""}${m[3]}`,
            ms: Number(m[5]) * (m[6] === "s" ? 1000 : 1),
          });
        const failure = FAIL_LINE.exec(line);
        if (failure) {
          failures.push(`${failure[1]} ${failure[2].trim()}`);
          failureLinesLeft = LINES_PER_FAILURE;
        } else if (failureLinesLeft > 0) {
          const detail = line.replace(/^@payspec\/[\w-]+:test:/, "").trim();
          if (detail && !/^[⎯-]+$/.test(detail)) {
            failures.push(`      ${detail.slice(0, 600)}`);
            failureLinesLeft--;
          }
        }
      }
    };
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      scan(chunk);
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, files, failures }));
  });
}

/**
 * The servers a test starts (a sandbox or mock CLI, PostgreSQL, WireMock, Unleash, LoopBack, ARA, Chromium,
 * a fault proxy): one of them still running after the run is a test that did not stop what it started.
 */
const TEST_SERVER =
  /payspec|\/tmp\/payspec-pg-|wiremock|unleash-server|example-todo|ara-manage|chromium|apps\/(sandbox|mock|contract-verifier)\/(dist|src)\/cli/i;

/** This process and its ancestors: the run itself is not a leftover. */
function ancestors() {
  const mine = new Set();
  let pid = process.pid;
  while (pid > 1 && !mine.has(pid)) {
    mine.add(pid);
    try {
      pid = Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim());
    } catch {
      break;
    }
  }
  return mine;
}

/** Processes started since the run began that look like a test's server and are still running. */
function leftovers(runSeconds) {
  let table = "";
  try {
    table = execFileSync("ps", ["-eo", "pid=,etimes=,args="], { encoding: "utf8" });
  } catch {
    return [];
  }
  const mine = ancestors();
  return table
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m) => m && Number(m[2]) <= runSeconds && !mine.has(Number(m[1])) && TEST_SERVER.test(m[3]))
    .filter((m) => !/\bps -eo\b/.test(m[3]))
    .map((m) => ({ pid: Number(m[1]), args: m[3].slice(0, 160) }));
}

const runStarted = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const timings = [];
const files = [];
const failures = [];
let failed = 0;
for (const [name, commands] of PHASES) {
  const started = Date.now();
  const results = await Promise.all(commands.map(run));
  const code = results.find((result) => result.code !== 0)?.code ?? 0;
  timings.push([name, Date.now() - started, code]);
  for (const result of results) {
    files.push(...result.files);
    failures.push(...result.failures);
  }
  if (code !== 0) {
    failed = code;
    break;
  }
}

console.log("\nWhere the time went (install excluded):");
for (const [name, ms, code] of timings)
  console.log(`  ${seconds(ms).padStart(8)}  ${name}${code ? `  (failed, exit ${code})` : ""}`);
if (files.length > 0) {
  console.log("The ten slowest test files (a file's own time; several packages run at once):");
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`  ${seconds(f.ms).padStart(8)}  ${f.where}`);
}
if (failures.length > 0) {
  console.log("What failed (vitest's report, first lines of each):");
  for (const line of failures.slice(0, 120)) console.log(`  ${line}`);
}
// Every test stops what it started, also when it fails: what is left now was not stopped. Named,
// stopped here so the machine is clean, and the run fails (unless it failed already).
await new Promise((resolve) => setTimeout(resolve, 2_000));
const left = leftovers(Math.ceil((Date.now() - runStarted) / 1000));
if (left.length > 0) {
  console.log(`Processes a test started and did not stop (${left.length}), stopped now:`);
  for (const p of left) {
    console.log(`  ${p.pid}  ${p.args}`);
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {}
  }
  if (failed === 0) failed = 1;
} else console.log("No process a test started outlived the run.");

/** podman as the container tests run it here (deploy/test/support/podman.ts writes that file). */
const CONTAINERS = { ...process.env, CONTAINERS_CONF: join(tmpdir(), "payspec-containers.conf") };

/**
 * What the container tests make under `payspec-test-*` names (containers, compose projects' networks
 * and volumes): one left now was not removed by its test. Removed here, and the run fails.
 */
function leftoverContainers() {
  const list = (args) => {
    try {
      return execFileSync("podman", args, { encoding: "utf8", env: CONTAINERS, stdio: ["ignore", "pipe", "ignore"] })
        .split("\n")
        .filter((name) => name.startsWith("payspec-test-"));
    } catch {
      return []; // no podman on this machine: nothing can be left
    }
  };
  return [
    ...list(["ps", "-a", "--format", "{{.Names}}"]).map((name) => ["container", name]),
    ...list(["pod", "ps", "--format", "{{.Name}}"]).map((name) => ["pod", name]),
    ...list(["network", "ls", "--format", "{{.Name}}"]).map((name) => ["network", name]),
    ...list(["volume", "ls", "--format", "{{.Name}}"]).map((name) => ["volume", name]),
  ];
}
const containers = leftoverContainers();
if (containers.length > 0) {
  console.log(
    `Containers, pods, networks or volumes a test made and did not remove (${containers.length}), removed now:`,
  );
  for (const [kind, name] of containers) {
    console.log(`  ${kind} ${name}`);
    try {
      execFileSync("podman", [kind, "rm", "-f", name], {
        stdio: "ignore",
        env: { ...process.env, CONTAINERS_CONF: "/tmp/payspec-containers.conf" },
      });
    } catch {}
  }
  if (failed === 0) failed = 1;
}
process.exit(failed);
