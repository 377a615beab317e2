/**
 * How fast each tool is ready, as a user starts it, median of 5 cold starts each, beside baselines
 * measured in the same run:
 * 1. the installed `payspec-sandbox` bin: spawn to the first 200 on GET /v1/accounts (goal <= 1.5 s),
 *    beside the Prism CLI's spawn to its first answer for one spec (the baseline);
 * 2. `pnpm start` in this already-installed clone: spawn to the first 200 (goal <= 10 s); and in a cold
 *    clone (the tracked files copied, installed from pnpm's store, nothing built: one run, goal <= 15 s);
 * 3. `payspec-verify --profile behaviour` against a running sandbox, as a whole process (goal <= 3 s),
 *    beside `node -e ""` (the cost of starting Node at all).
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { binPath, median, table } from "@payspec/bench-kit";
import { specPath } from "@payspec/specs";

const ROUNDS = 5;
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const prismBin = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const KEY = "Bearer sk_sandbox_demo_1";

/** Spawns a command and measures the ms until `url` first answers `expect` (or any answer); then kills it. */
async function spawnToFirstAnswer(
  command: string,
  args: readonly string[],
  url: string,
  options: { headers?: Record<string, string>; expect?: number; cwd?: string } = {},
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, stdio: "ignore", detached: true });
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const status = await fetch(url, { headers: options.headers ?? {} }).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 0 && (options.expect === undefined || status === options.expect))
        return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${command} ${args.join(" ")} never answered ${url}`);
  } finally {
    // The whole process group: `pnpm start` runs turbo and node below it.
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function processMs(command: string, args: readonly string[]): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
  return performance.now() - started;
}

async function medianOf(run: (round: number) => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let round = 0; round < ROUNDS; round++) values.push(await run(round));
  return median(values);
}

const sandboxBin = binPath("@payspec/sandbox", import.meta.resolve);
const verifyBin = binPath("@payspec/contract-verifier", import.meta.resolve);

const sandboxMs = await medianOf((i) =>
  spawnToFirstAnswer(
    process.execPath,
    [sandboxBin, "--port", String(4731 + i)],
    `http://127.0.0.1:${4731 + i}/v1/accounts`,
    {
      headers: { authorization: KEY },
      expect: 200,
    },
  ),
);
const prismMs = await medianOf((i) =>
  spawnToFirstAnswer(
    prismBin,
    ["mock", "-p", String(4741 + i), "-h", "127.0.0.1", "--errors", "false", specPath("payments-accounts")],
    `http://127.0.0.1:${4741 + i}/v1/accounts`,
    { headers: { authorization: KEY } },
  ),
);
const pnpmStartMs = await medianOf((i) =>
  spawnToFirstAnswer("pnpm", ["start", "--", "--port", String(4751 + i)], `http://127.0.0.1:${4751 + i}/v1/accounts`, {
    headers: { authorization: KEY },
    expect: 200,
  }),
);

/** A clone as a newcomer has it after `pnpm install`: the tracked files, dependencies, nothing built. */
function coldClone(): string {
  const dir = mkdtempSync(join(tmpdir(), "payspec-cold-clone-"));
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT }).toString().split("\0").filter(Boolean);
  for (const file of tracked.filter((f) => existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  execFileSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], { cwd: dir, stdio: "ignore" });
  return dir;
}
const cold = coldClone();
const coldStartMs = await spawnToFirstAnswer(
  "pnpm",
  ["start", "--", "--port", "4759"],
  "http://127.0.0.1:4759/v1/accounts",
  {
    headers: { authorization: KEY },
    expect: 200,
    cwd: cold,
  },
).finally(() => rmSync(cold, { recursive: true, force: true }));

const sandbox = spawn(process.execPath, [sandboxBin, "--port", "4761"], { stdio: "ignore" });
while (
  (await fetch("http://127.0.0.1:4761/v1/accounts", { headers: { authorization: KEY } }).catch(() => undefined))
    ?.status !== 200
) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const verifyMs = await medianOf(() =>
  processMs(process.execPath, [
    verifyBin,
    "--target",
    "http://127.0.0.1:4761",
    "--profile",
    "behaviour",
    "--allow-writes",
  ]),
);
const nodeMs = await medianOf(() => processMs(process.execPath, ["-e", ""]));
sandbox.kill("SIGTERM");

console.log(`Time to first answer, median of ${ROUNDS} cold starts\n`);
console.log(
  table(
    ["what", "median ms", "goal ms", "baseline", "baseline ms", "x baseline"],
    [
      ["payspec-sandbox bin to first 200", sandboxMs, 1500, "Prism CLI, one spec", prismMs, sandboxMs / prismMs],
      [
        "pnpm start (installed clone) to first 200",
        pnpmStartMs,
        10_000,
        "payspec-sandbox bin",
        sandboxMs,
        pnpmStartMs / sandboxMs,
      ],
      [
        "pnpm start (cold clone: installed, nothing built) to first 200, one run",
        coldStartMs,
        15_000,
        "pnpm start, installed clone",
        pnpmStartMs,
        coldStartMs / pnpmStartMs,
      ],
      ["payspec-verify --profile behaviour, whole process", verifyMs, 3000, "node -e ''", nodeMs, verifyMs / nodeMs],
    ],
  ),
);
