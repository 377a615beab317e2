/**
 * `payspec-verify --spec` on a large third-party spec (STAPI, the Star Trek API: 120 operations,
 * from @readme/oas-examples) against the Prism CLI's mock of it, median of 5 runs: wall time and
 * checks/s, beside a baseline measured in the same run: the same number of plain sequential
 * requests to the same Prism, to show what generating, checking and reporting cost. A printed rerun
 * line (`--only` one check) is timed the same way: what it costs is mostly reading the spec.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { medianMs, startProcess, table } from "@payspec/bench-kit";
import { parseOptions, runVerification } from "@payspec/contract-verifier";

const ROUNDS = 5;
const PRISM_PORT = 4714;
const prismBin = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const spec = createRequire(import.meta.url).resolve("@readme/oas-examples/3.0/json/star-trek.json");
const target = `http://127.0.0.1:${PRISM_PORT}`;

const stop = await startProcess(
  prismBin,
  ["mock", "-h", "127.0.0.1", "-p", String(PRISM_PORT), "-v", "silent", spec],
  `${target}/animal?uid=x`,
);
try {
  // The Prism CLI serves the paths at its root, not under the spec's server path.
  const args = ["--spec", spec, "--target", target, "--base-path", "/"];
  const options = parseOptions(args);
  const plainGets = async (count: number) => {
    for (let i = 0; i < count; i++) await (await fetch(`${target}/animal?uid=ANMA0000001`)).arrayBuffer();
  };
  let checks = 0;
  let requests = 0;
  let failed = 0;
  const verifyMs = await medianMs(ROUNDS, async () => {
    const report = await runVerification(options);
    checks = report.results.length;
    requests = report.results.reduce((n, r) => n + r.requests, 0);
    failed = report.counts.failed + report.counts.error;
  });
  if (failed > 0) throw new Error(`payspec verify --spec found ${failed} failures in Prism's mock of STAPI`);
  const plainMs = await medianMs(ROUNDS, () => plainGets(requests));
  const rerun = parseOptions([...args, "--only", "positive.GET /animal"]);
  let rerunRequests = 0;
  const rerunMs = await medianMs(ROUNDS, async () => {
    const report = await runVerification(rerun);
    rerunRequests = report.results.reduce((n, r) => n + r.requests, 0);
  });
  if (rerunRequests === 0) throw new Error("--only positive.GET /animal ran no request: the check's id has changed");
  const plainRerunMs = await medianMs(ROUNDS, () => plainGets(rerunRequests));
  console.log(`payspec verify --spec on STAPI (120 operations) against the Prism CLI, median of ${ROUNDS} runs\n`);
  console.log(
    table(
      ["run", "checks", "requests", "median ms", "checks/s", "plain ms", "x plain"],
      [
        [
          "verify --spec star-trek.json",
          checks,
          requests,
          verifyMs,
          checks / (verifyMs / 1000),
          plainMs,
          verifyMs / plainMs,
        ],
        [
          "rerun line: --only positive.GET /animal",
          1,
          rerunRequests,
          rerunMs,
          1000 / rerunMs,
          plainRerunMs,
          rerunMs / plainRerunMs,
        ],
      ],
    ),
  );
  console.log(
    "\nplain ms: the same number of plain GET /animal to the same Prism, one after another, in the same run.",
  );
} finally {
  stop();
}
