/**
 * How long `payspec-verify` takes to conclude on a provider whose cursor repeats (each cursor page is
 * the page before again), beside the same checks on the same sandbox answering faithfully, through
 * the same fault proxy, in the same run. A listing walk used to follow such a cursor for 1,000 pages
 * per check (150 s on a real server); it now stops at the first repeat, so the looping provider
 * concludes in about the time of a faithful one. Median of 5 runs each.
 */
import { medianMs, table } from "@payspec/bench-kit";
import { parseOptions, runVerification } from "@payspec/contract-verifier";
import { repeatingCursor, startFaultProxy } from "@payspec/fault-proxy";
import { startSandbox } from "@payspec/sandbox";

const ROUNDS = 5;
/** Concluding on a looping provider may cost at most this many times a faithful run's time. */
const GOAL = 2;
const sandbox = await startSandbox();
const proxy = await startFaultProxy(sandbox.url);

async function measure(looping: boolean): Promise<{ ms: number; requests: number; failed: number }> {
  let requests = 0;
  let failed = 0;
  const ms = await medianMs(ROUNDS, async () => {
    proxy.clear();
    await sandbox.reset();
    if (looping) proxy.inject(repeatingCursor("/v1/payments"));
    const report = await runVerification(
      parseOptions(["--target", proxy.url, "--profile", "behaviour", "--include-checks", "pagination,filters"]),
    );
    requests = report.results.reduce((n, r) => n + r.requests, 0);
    failed = report.counts.failed;
  });
  return { ms, requests, failed };
}

try {
  const faithful = await measure(false);
  const looping = await measure(true);
  if (faithful.failed > 0) throw new Error(`the faithful sandbox failed ${faithful.failed} listing checks`);
  if (looping.failed === 0) throw new Error("the looping provider passed every listing check: the fault did not apply");
  const ratio = looping.ms / faithful.ms;
  console.log(`payspec verify's listing checks on a provider whose cursor repeats, median of ${ROUNDS} runs\n`);
  console.log(
    table(
      ["provider", "requests", "failed checks", "median ms", "x faithful", "goal"],
      [
        ["faithful sandbox (baseline)", faithful.requests, faithful.failed, faithful.ms, 1, ""],
        ["repeating cursor", looping.requests, looping.failed, looping.ms, ratio, `<= ${GOAL}x`],
      ],
    ),
  );
  console.log(
    `\n${ratio <= GOAL ? "met" : "NOT MET"}: the looping provider concludes in ${ratio.toFixed(2)}x a faithful run's time.`,
  );
} finally {
  await proxy.close();
  await sandbox.close();
}
