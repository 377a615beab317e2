/**
 * Request throughput near the machine's limit, each row against a baseline measured in the same run
 * (targets interleaved round by round, medians of the rounds; each ratio the median of the rounds' own). Load comes from wrk in its own process
 * on its own core, with the servers pinned to the other (bench-kit falls back to autocannon, saying
 * so, where wrk is missing).
 *
 * | row                                   | baseline                 | goal    |
 * | sandbox GET /v1/accounts              | trivial node:http, GET   | >= 0.7x |
 * | sandbox POST /v1/payments             | trivial node:http, POST  | >= 0.5x |
 * | payspec mock GET /v1/accounts         | Prism CLI, same spec     | >= 1.5x |
 * | payspec mock POST card payment        | Prism CLI, same spec     | >= 1.5x |
 *
 * Beside each sandbox row, the framework's floor: server-kit's Fastify setup answering the same JSON
 * with no sandbox behind it, so the table shows how much of the gap is Fastify's and how much ours.
 *
 * The sandbox runs as users run it: the dashboard's request log on (the default).
 *
 * The run proves its generator is not the limit: it prints the machine's state (cores, load, each
 * core's idle share just before the load) and wrk's own CPU against the trivial server, and prints
 * no verdict when wrk used nearly all of its core or a core was busy beforehand.
 */
import { fileURLToPath } from "node:url";
import {
  binPath,
  compareHttp,
  cpuPinning,
  describeMachine,
  type HttpResult,
  loadGenerator,
  type MachineState,
  machineState,
  pairedRatio,
  startProcess,
  table,
} from "@payspec/bench-kit";
import { cardGatewaySpec, specExamples, specPath } from "@payspec/specs";
import { auth, json, PENDING_FOR_THE_RUN, postCreate, sandboxBin, url } from "./sandbox-fixture.js";

const PORTS = { sandbox: 4741, trivial: 4742, mock: 4743, prismPayments: 4744, prismGateway: 4745, floor: 4746 };
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));
const prismBin = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const card = specExamples(cardGatewaySpec).find(
  (e) => e.operationId === "createCardPayment" && e.part === "request",
)?.value;

/** Share of one core at which wrk itself, not the server, is taken to set the pace. */
const GENERATOR_BOUND = 0.9;
/** A core less idle than this before the run is doing other work that the figures would carry. */
const QUIET_CORE = 0.85;

const cpuText = (share: number | undefined) => (share === undefined ? "not measured" : `${Math.round(share * 100)}%`);

/**
 * Why the run's ratios cannot be trusted, if they cannot: the baseline was held back by wrk itself
 * (it used nearly all of its core), or a core was busy with other work before the load started.
 */
function generatorProblems(machine: MachineState, baselines: { name: string; result: HttpResult }[]): string[] {
  const problems: string[] = [];
  if (loadGenerator().name !== "wrk") problems.push("the load came from autocannon inside this process, not wrk");
  for (const { name, result } of baselines) {
    if ((result.generatorCpu ?? 0) >= GENERATOR_BOUND)
      problems.push(
        `wrk used ${cpuText(result.generatorCpu)} of its core against ${name}: the generator, not the server, set the pace`,
      );
  }
  const pinning = cpuPinning();
  for (const core of pinning.available
    ? [pinning.loadCore, pinning.serverCore]
    : Object.keys(machine.idle).map(Number)) {
    const idle = machine.idle[core];
    if (idle !== undefined && idle < QUIET_CORE)
      problems.push(`core ${core} was only ${Math.round(idle * 100)}% idle before the run`);
  }
  return problems;
}

const stops: (() => void)[] = [];
const start = async (command: string, args: string[], ready: string, env: NodeJS.ProcessEnv = {}) => {
  stops.push(await startProcess(command, args, ready, { env, pinned: true }));
};

try {
  await start(process.execPath, [sandboxBin], url(PORTS.sandbox, "/"), {
    PORT: String(PORTS.sandbox),
    ...PENDING_FOR_THE_RUN,
  });
  const accountsJson = await (await fetch(url(PORTS.sandbox, "/v1/accounts"), { headers: auth })).text();
  await start(tsx, [fileURLToPath(new URL("./trivial-server.ts", import.meta.url))], url(PORTS.trivial, "/"), {
    PORT: String(PORTS.trivial),
    BENCH_BODY: accountsJson,
  });
  await start(tsx, [fileURLToPath(new URL("./framework-floor-server.ts", import.meta.url))], url(PORTS.floor, "/"), {
    PORT: String(PORTS.floor),
    BENCH_BODY: accountsJson,
  });
  await start(process.execPath, [binPath("@payspec/mock", import.meta.resolve)], url(PORTS.mock, "/"), {
    PORT: String(PORTS.mock),
  });
  for (const [port, spec] of [
    [PORTS.prismPayments, "payments-accounts"],
    [PORTS.prismGateway, "card-gateway"],
  ] as const) {
    await start(
      prismBin,
      ["mock", "-h", "127.0.0.1", "-p", String(port), "-v", "silent", specPath(spec)],
      url(port, "/"),
    );
  }

  const post = (body: string) => ({ method: "POST" as const, headers: json, body });
  const rows = [
    { name: "trivial node:http, GET", url: url(PORTS.trivial, "/v1/accounts"), headers: auth },
    { name: "Fastify floor, GET", url: url(PORTS.floor, "/v1/accounts"), headers: auth, baseline: 0 },
    {
      name: "sandbox GET /v1/accounts",
      url: url(PORTS.sandbox, "/v1/accounts"),
      headers: auth,
      baseline: 0,
      goal: 0.7,
    },
    { name: "trivial node:http, POST", url: url(PORTS.trivial, "/v1/payments"), ...postCreate },
    { name: "Fastify floor, POST", url: url(PORTS.floor, "/v1/payments"), ...postCreate, baseline: 3 },
    {
      name: "sandbox POST /v1/payments",
      url: url(PORTS.sandbox, "/v1/payments"),
      ...postCreate,
      baseline: 3,
      goal: 0.5,
    },
    { name: "Prism CLI GET /v1/accounts", url: url(PORTS.prismPayments, "/v1/accounts"), headers: auth },
    { name: "payspec mock, same", url: url(PORTS.mock, "/v1/accounts"), headers: auth, baseline: 6, goal: 1.5 },
    {
      name: "Prism CLI POST card payment",
      url: url(PORTS.prismGateway, "/api/v1/payments/card"),
      ...post(JSON.stringify(card)),
    },
    {
      name: "payspec mock, same",
      url: url(PORTS.mock, "/api/v1/payments/card"),
      ...post(JSON.stringify(card)),
      baseline: 8,
      goal: 1.5,
    },
  ];
  // The machine as the run finds it (all servers up and idle): a busy core voids every figure.
  const machine = await machineState();
  const results = await compareHttp(rows.map((row, i) => ({ ...row, name: `${i}` })));
  console.log(
    `Request throughput: median of 5 interleaved 3 s rounds, 16 connections; a ratio is the median of the rounds' own ratios; load: ${loadGenerator().description}`,
  );
  console.log(`Machine: ${describeMachine(machine)}\n`);
  const verdicts: string[] = [];
  const voided = generatorProblems(
    machine,
    [0, 3].map((i) => ({ name: rows[i]?.name ?? "", result: results[i] as (typeof results)[number] })),
  );
  console.log(
    table(
      ["target", "req/s", "p99 ms", "ratio", "goal", "non-2xx"],
      rows.map((row, i) => {
        const result = results[i] as (typeof results)[number];
        if (!("baseline" in row) || row.baseline === undefined)
          return [row.name, result.requestsPerSecond, result.p99Ms, "1 (baseline)", "–", result.non2xx];
        const base = results[row.baseline] as (typeof results)[number];
        const ratio = pairedRatio(result.roundsPerSecond, base.roundsPerSecond);
        // A reference row (the framework's floor) has a ratio and no goal of its own.
        if (!("goal" in row) || row.goal === undefined)
          return [row.name, result.requestsPerSecond, result.p99Ms, `${ratio.toFixed(2)}x`, "–", result.non2xx];
        // The verdict shows 3 decimals, as it is judged on the ratio itself: 0.496 would print as 0.50.
        verdicts.push(
          `${row.name === "payspec mock, same" ? `payspec mock vs ${rows[row.baseline]?.name}` : row.name}: ${ratio.toFixed(3)}x (goal >= ${row.goal}x) ${ratio >= row.goal ? "met" : "NOT met"}`,
        );
        return [
          row.name,
          result.requestsPerSecond,
          result.p99Ms,
          `${ratio.toFixed(2)}x`,
          `>= ${row.goal}x`,
          result.non2xx,
        ];
      }),
    ),
  );
  console.log(
    `\nwrk's own CPU against the trivial server: ${[0, 3].map((i) => `${rows[i]?.name} ${cpuText(results[i]?.generatorCpu)}`).join(", ")}`,
  );
  if (voided.length > 0) {
    console.log(`No verdict: ${voided.join("; ")}. Every ratio above is void; run again on a quiet machine.`);
  } else console.log(`\n${verdicts.join("\n")}`);
} finally {
  for (const stop of stops) stop();
}
