/**
 * What faults on demand cost when they do not strike: the sandbox's GET and POST throughput with
 * faults declared on another operation of the same workspace, beside a sandbox with none, in the
 * same run (interleaved rounds, medians). Goal: at most 5% slower (ratio >= 0.95).
 */
import { compareHttp, loadGenerator, pairedRatio, startProcess, table } from "@payspec/bench-kit";
import { auth, json, PENDING_FOR_THE_RUN, postCreate, sandboxBin, url } from "./sandbox-fixture.js";

const PORTS = { plain: 4751, faulted: 4752 };
const GOAL = 0.95;

const stops: (() => void)[] = [];
try {
  for (const port of Object.values(PORTS)) {
    const env = { PORT: String(port), ...PENDING_FOR_THE_RUN };
    stops.push(await startProcess(process.execPath, [sandboxBin], url(port, "/"), { env, pinned: true }));
  }
  // Faults the measured requests pass by: on cancel and on the batch, one per operation and a list of both.
  for (const body of [
    { operation: "cancelPayment", fault: "error-503", next: 100_000 },
    { operation: "createPaymentBatch", fault: "reset-after-commit", probability: 0.5, max: 100_000 },
    { operation: ["getPayment", "listPayments"], fault: "latency-before", next: 100_000 },
  ]) {
    const declared = await fetch(url(PORTS.faulted, "/_sandbox/faults"), {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    });
    if (declared.status !== 201) throw new Error(`declaring a fault failed: ${await declared.text()}`);
  }

  const rows = [
    { name: "GET /v1/accounts, no faults", url: url(PORTS.plain, "/v1/accounts"), headers: auth },
    { name: "GET /v1/accounts, faults elsewhere", url: url(PORTS.faulted, "/v1/accounts"), headers: auth, baseline: 0 },
    { name: "POST /v1/payments, no faults", url: url(PORTS.plain, "/v1/payments"), ...postCreate },
    {
      name: "POST /v1/payments, faults elsewhere",
      url: url(PORTS.faulted, "/v1/payments"),
      ...postCreate,
      baseline: 2,
    },
  ];
  const results = await compareHttp(rows.map((row, i) => ({ ...row, name: `${i}` })));
  console.log(
    `Faults on demand, not striking: median of 5 interleaved rounds, ratios paired round by round; load: ${loadGenerator().description}\n`,
  );
  const verdicts: string[] = [];
  console.log(
    table(
      ["target", "req/s", "p99 ms", "ratio", "goal"],
      rows.map((row, i) => {
        const result = results[i] as (typeof results)[number];
        if (row.baseline === undefined) return [row.name, result.requestsPerSecond, result.p99Ms, "1 (baseline)", "–"];
        const base = results[row.baseline] as (typeof results)[number];
        const ratio = pairedRatio(result.roundsPerSecond, base.roundsPerSecond);
        verdicts.push(`${row.name}: ${ratio.toFixed(2)}x (goal >= ${GOAL}x) ${ratio >= GOAL ? "met" : "NOT met"}`);
        return [row.name, result.requestsPerSecond, result.p99Ms, `${ratio.toFixed(2)}x`, `>= ${GOAL}x`];
      }),
    ),
  );
  console.log(`\n${verdicts.join("\n")}`);
} finally {
  for (const stop of stops) stop();
}
