/**
 * Request throughput near the machine's limit, each row against a baseline measured in the same run
 * (targets interleaved round by round, medians of the rounds; each ratio the median of the rounds' own). Load comes from wrk in its own process
 * on its own core, with the servers pinned to the other (bench-kit falls back to autocannon, saying
 * so, where wrk is missing).
 *
 * | row                                   | baseline                 | goal     |
 * | Fastify floor GET /v1/accounts        | trivial node:http, GET   | >= 0.85x |
 * | sandbox GET /v1/accounts              | trivial node:http, GET   | >= 0.7x  |
 * | Fastify floor POST /v1/payments       | trivial node:http, POST  | >= 0.85x |
 * | sandbox POST /v1/payments             | trivial node:http, POST  | >= 0.5x  |
 * | payspec mock GET /v1/accounts         | Prism CLI, same spec     | >= 1.5x  |
 * | payspec mock POST card payment        | Prism CLI, same spec     | >= 1.5x  |
 *
 * The floor is server-kit's Fastify setup answering the same JSON with no sandbox behind it; beside
 * it, for reference, Fastify as it comes (`Fastify()`, no hooks) and, on POST, node:http reading and
 * parsing the body. The rows split the gap between node:http and the sandbox into what parsing JSON
 * costs, Fastify's own cost, server-kit's and the sandbox's. The floor and Fastify as it comes send
 * the text the trivial server sends, serialized once: serializing is the application's work.
 *
 * server-kit writes each answer once the event loop's turn has read every request that arrived
 * (`createApiServer`), and node:http does not: the reference row "node:http writing after the turn's
 * reads" is the trivial server doing the same, so that what this timing gives by itself shows
 * beside what the framework and the sandbox cost.
 *
 * Each row also gives its server's CPU time per request (every thread, and a child process where tsx
 * runs the script in one): a ratio says how fast a server answered, the CPU what each answer cost it.
 *
 * The sandbox runs as users run it: the dashboard's request log on (the default), measured twice: as
 * started, and after serving one dashboard page (on Node 20 the page's language storage turns on
 * promise hooks process-wide while a page is written; the row shows they are off again afterwards).
 *
 * The run proves its generator is not the limit: it prints the machine's state (cores, load, each
 * core's idle share just before the load), wrk's own CPU against the trivial server, and each row's
 * steal time (the share of a core the hypervisor gave to other guests while it ran), and prints no
 * verdict when wrk used nearly all of its core, a core was busy beforehand, or a row lost more than
 * 5% of a core that way.
 */
import { fileURLToPath } from "node:url";
import {
  binPath,
  compareHttp,
  generatorCpuText,
  loadGenerator,
  loadProblems,
  machineBeforeLoad,
  machineLine,
  noVerdict,
  pairedRatio,
  startProcess,
  stolenText,
  table,
} from "@payspec/bench-kit";
import { cardGatewaySpec, specExamples, specPath } from "@payspec/specs";
import { auth, json, PENDING_FOR_THE_RUN, postCreate, sandboxBin, url } from "./sandbox-fixture.js";

const PORTS = {
  sandbox: 4741,
  trivial: 4742,
  mock: 4743,
  prismPayments: 4744,
  prismGateway: 4745,
  floor: 4746,
  plainFastify: 4747,
  sandboxDashboardUsed: 4748,
  trivialParsing: 4749,
  trivialAfterReads: 4750,
};
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));
const prismBin = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const card = specExamples(cardGatewaySpec).find(
  (e) => e.operationId === "createCardPayment" && e.part === "request",
)?.value;

/** The baselines, by row name: each measured row names the row it is a ratio of. */
const TRIVIAL_GET = "trivial node:http, GET";
const TRIVIAL_POST = "trivial node:http, POST";
const PRISM_GET = "Prism CLI GET /v1/accounts";
const PRISM_CARD = "Prism CLI POST card payment";
/** The trivial node:http server's rows, whose rate proves wrk is not the limit. */
const GENERATOR_CHECK_ROWS = [TRIVIAL_GET, TRIVIAL_POST];

const stops: (() => void)[] = [];
/** Each started server's process, by the port it answers on: its CPU per request goes in the table. */
const pidByPort = new Map<string, number>();
const start = async (command: string, args: string[], ready: string, env: NodeJS.ProcessEnv = {}) => {
  const started = await startProcess(command, args, ready, { env, pinned: true });
  stops.push(started);
  if (started.pid !== undefined) pidByPort.set(new URL(ready).port, started.pid);
};
const pidsOf = (target: string) => {
  const pid = pidByPort.get(new URL(target).port);
  return pid === undefined ? {} : { pids: [pid] };
};

try {
  for (const port of [PORTS.sandbox, PORTS.sandboxDashboardUsed]) {
    await start(process.execPath, [sandboxBin], url(port, "/"), { PORT: String(port), ...PENDING_FOR_THE_RUN });
  }
  // One dashboard page, as a team's sandbox serves them beside the API. The page's language lives in an
  // AsyncLocalStorage: on Node 20, in use it turns on promise hooks for the whole process, and every
  // await of the API's requests would pay for them had the sandbox not turned it off after the page.
  const page = await fetch(url(PORTS.sandboxDashboardUsed, "/_sandbox/dashboard"), { redirect: "manual" });
  if (page.status >= 400) throw new Error(`The sandbox's dashboard answered ${page.status}.`);
  const accountsJson = await (await fetch(url(PORTS.sandbox, "/v1/accounts"), { headers: auth })).text();
  for (const [port, parse, afterReads] of [
    [PORTS.trivial, "0", "0"],
    [PORTS.trivialParsing, "1", "0"],
    [PORTS.trivialAfterReads, "0", "1"],
  ] as const) {
    await start(tsx, [fileURLToPath(new URL("./trivial-server.ts", import.meta.url))], url(port, "/"), {
      PORT: String(port),
      BENCH_BODY: accountsJson,
      BENCH_PARSE_BODY: parse,
      BENCH_WRITE_AFTER_READS: afterReads,
    });
  }
  for (const [port, server] of [
    [PORTS.floor, "./framework-floor-server.ts"],
    [PORTS.plainFastify, "./plain-fastify-server.ts"],
  ] as const) {
    await start(tsx, [fileURLToPath(new URL(server, import.meta.url))], url(port, "/"), {
      PORT: String(port),
      BENCH_BODY: accountsJson,
    });
  }
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
    { name: TRIVIAL_GET, url: url(PORTS.trivial, "/v1/accounts"), headers: auth },
    {
      name: "node:http writing after the turn's reads, GET",
      url: url(PORTS.trivialAfterReads, "/v1/accounts"),
      headers: auth,
      baseline: TRIVIAL_GET,
    },
    {
      name: "Fastify as it comes, GET",
      url: url(PORTS.plainFastify, "/v1/accounts"),
      headers: auth,
      baseline: TRIVIAL_GET,
    },
    {
      name: "Fastify floor, GET",
      url: url(PORTS.floor, "/v1/accounts"),
      headers: auth,
      baseline: TRIVIAL_GET,
      goal: 0.85,
    },
    {
      name: "sandbox GET /v1/accounts",
      url: url(PORTS.sandbox, "/v1/accounts"),
      headers: auth,
      baseline: TRIVIAL_GET,
      goal: 0.7,
    },
    {
      name: "sandbox GET, dashboard in use",
      url: url(PORTS.sandboxDashboardUsed, "/v1/accounts"),
      headers: auth,
      baseline: TRIVIAL_GET,
      goal: 0.7,
    },
    { name: TRIVIAL_POST, url: url(PORTS.trivial, "/v1/payments"), ...postCreate },
    {
      name: "node:http writing after the turn's reads, POST",
      url: url(PORTS.trivialAfterReads, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
    },
    {
      name: "node:http parsing the body",
      url: url(PORTS.trivialParsing, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
    },
    {
      name: "Fastify as it comes, POST",
      url: url(PORTS.plainFastify, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
    },
    {
      name: "Fastify floor, POST",
      url: url(PORTS.floor, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
      goal: 0.85,
    },
    {
      name: "sandbox POST /v1/payments",
      url: url(PORTS.sandbox, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
      goal: 0.5,
    },
    {
      name: "sandbox POST, dashboard in use",
      url: url(PORTS.sandboxDashboardUsed, "/v1/payments"),
      ...postCreate,
      baseline: TRIVIAL_POST,
      goal: 0.5,
    },
    { name: PRISM_GET, url: url(PORTS.prismPayments, "/v1/accounts"), headers: auth },
    { name: "payspec mock, same", url: url(PORTS.mock, "/v1/accounts"), headers: auth, baseline: PRISM_GET, goal: 1.5 },
    {
      name: PRISM_CARD,
      url: url(PORTS.prismGateway, "/api/v1/payments/card"),
      ...post(JSON.stringify(card)),
    },
    {
      name: "payspec mock, same",
      url: url(PORTS.mock, "/api/v1/payments/card"),
      ...post(JSON.stringify(card)),
      baseline: PRISM_CARD,
      goal: 1.5,
    },
  ];
  // One run here found its server core 55% idle just after the servers started: they settle first.
  const machine = await machineBeforeLoad();
  const results = await compareHttp(rows.map((row, i) => ({ ...row, name: `${i}`, ...pidsOf(row.url) })));
  console.log(
    `Request throughput: median of 5 interleaved 3 s rounds, 16 connections; a ratio is the median of the rounds' own ratios; load: ${loadGenerator().description}`,
  );
  console.log(`${machineLine(machine)}\n`);
  const verdicts: string[] = [];
  const resultOf = (name: string) => results[rows.findIndex((row) => row.name === name)] as (typeof results)[number];
  const voided = loadProblems(
    machine,
    GENERATOR_CHECK_ROWS.map((name) => ({ name, result: resultOf(name) })),
    results.map((result, i) => ({ ...result, name: (rows[i] as (typeof rows)[number]).name })),
  );
  console.log(
    table(
      ["target", "req/s", "p99 ms", "CPU µs/req", "stolen", "ratio", "goal", "non-2xx"],
      rows.map((row, i) => {
        const result = results[i] as (typeof results)[number];
        const line = (ratio: string, goal: string) => [
          row.name,
          result.requestsPerSecond,
          result.p99Ms,
          result.serverCpuUsPerRequest ?? "–",
          stolenText(result),
          ratio,
          goal,
          result.non2xx,
        ];
        if (!("baseline" in row) || row.baseline === undefined) return line("1 (baseline)", "–");
        const base = resultOf(row.baseline);
        const ratio = pairedRatio(result.roundsPerSecond, base.roundsPerSecond);
        // A reference row (Fastify as it comes) has a ratio and no goal of its own.
        if (!("goal" in row) || row.goal === undefined) return line(`${ratio.toFixed(2)}x`, "–");
        // The verdict shows 3 decimals, as it is judged on the ratio itself: 0.496 would print as 0.50.
        verdicts.push(
          `${row.name === "payspec mock, same" ? `payspec mock vs ${row.baseline}` : row.name}: ${ratio.toFixed(3)}x (goal >= ${row.goal}x) ${ratio >= row.goal ? "met" : "NOT met"}`,
        );
        return line(`${ratio.toFixed(2)}x`, `>= ${row.goal}x`);
      }),
    ),
  );
  console.log(
    `\nwrk's own CPU against the trivial server: ${GENERATOR_CHECK_ROWS.map((name) => `${name} ${generatorCpuText(resultOf(name).generatorCpu)}`).join(", ")}`,
  );
  if (voided.length > 0) {
    console.log(noVerdict(voided));
  } else console.log(`\n${verdicts.join("\n")}`);
} finally {
  for (const stop of stops) stop();
}
