/**
 * A full contract-verification run against the sandbox (sandbox profile): total time and checks per
 * second, median of 5 runs, against a baseline measured alongside: the same number of plain
 * sequential requests, to show what the checking itself costs.
 */
import { medianMs, table } from "@payspec/bench-kit";
import { parseOptions, runVerification } from "@payspec/contract-verifier";
import { DEMO_API_KEYS, startSandbox } from "@payspec/sandbox";

const sandbox = await startSandbox();
try {
  const options = parseOptions(["--target", sandbox.url, "--profile", "sandbox"]);
  let checks = 0;
  let requests = 0;
  const verifyMs = await medianMs(5, async () => {
    await sandbox.reset();
    const report = await runVerification(options);
    checks = report.results.length;
    requests = report.results.reduce((n, r) => n + r.requests, 0);
  });
  const plainMs = await medianMs(5, async () => {
    for (let i = 0; i < requests; i++)
      await (
        await fetch(`${sandbox.url}/v1/accounts`, { headers: { authorization: `Bearer ${DEMO_API_KEYS[0]}` } })
      ).arrayBuffer();
  });
  console.log(`Contract verification against the sandbox: ${checks} checks, ${requests} requests, median of 5 runs\n`);
  console.log(
    table(
      ["run", "median ms", "checks/s", "x plain"],
      [
        ["payspec verify --profile sandbox", verifyMs, checks / (verifyMs / 1000), verifyMs / plainMs],
        [`${requests} plain GET /v1/accounts`, plainMs, Number.NaN, 1],
      ],
    ),
  );
} finally {
  await sandbox.close();
}
