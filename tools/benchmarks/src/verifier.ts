/**
 * Contract verification against the sandbox, median of 5 runs each: the behaviour and sandbox
 * profiles (wall time, checks/s) and a 200-sequence stateful run (wall time, sequences/s), each
 * beside a baseline measured alongside: the same number of plain sequential requests, to show what
 * the checking itself costs.
 */
import { medianMs, table } from "@payspec/bench-kit";
import { parseOptions, runVerification } from "@payspec/contract-verifier";
import { DEMO_API_KEYS, startSandbox } from "@payspec/sandbox";

const ROUNDS = 5;
const SEQUENCES = 200;
const sandbox = await startSandbox();

async function plainRequestsMs(count: number): Promise<number> {
  return medianMs(ROUNDS, async () => {
    for (let i = 0; i < count; i++)
      await (
        await fetch(`${sandbox.url}/v1/accounts`, { headers: { authorization: `Bearer ${DEMO_API_KEYS[0]}` } })
      ).arrayBuffer();
  });
}

interface Measured {
  readonly ms: number;
  readonly checks: number;
  readonly requests: number;
  readonly plainMs: number;
}

async function measure(args: readonly string[]): Promise<Measured> {
  const options = parseOptions(["--target", sandbox.url, ...args]);
  let checks = 0;
  let requests = 0;
  let failed = 0;
  const ms = await medianMs(ROUNDS, async () => {
    await sandbox.reset();
    const report = await runVerification(options);
    checks = report.results.length;
    requests = report.results.reduce((n, r) => n + r.requests, 0);
    failed = report.counts.failed + report.counts.error;
  });
  if (failed > 0) throw new Error(`payspec verify ${args.join(" ")} found ${failed} failures in the sandbox`);
  return { ms, checks, requests, plainMs: await plainRequestsMs(requests) };
}

try {
  const behaviour = await measure(["--profile", "behaviour"]);
  const sandboxProfile = await measure(["--profile", "sandbox"]);
  const stateful = await measure(["--stateful", "--profile", "sandbox", "--runs", String(SEQUENCES)]);
  console.log(`Contract verification against the sandbox, median of ${ROUNDS} runs\n`);
  // checks/s for the profiles; sequences/s for the stateful run.
  const row = (label: string, m: Measured, perSecond: number) => [
    label,
    m.requests,
    m.ms,
    perSecond / (m.ms / 1000),
    m.plainMs,
    m.ms / m.plainMs,
  ];
  console.log(
    table(
      ["run", "requests", "median ms", "checks/s", "plain ms", "x plain"],
      [
        row("verify --profile behaviour", behaviour, behaviour.checks),
        row("verify --profile sandbox", sandboxProfile, sandboxProfile.checks),
        row(`verify --stateful, ${SEQUENCES} sequences (sequences/s)`, stateful, SEQUENCES),
      ],
    ),
  );
  console.log("\nplain ms: the same number of plain GET /v1/accounts, one after another, in the same run.");
} finally {
  await sandbox.close();
}
