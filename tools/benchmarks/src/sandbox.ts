/**
 * Sandbox benchmarks, each against a baseline measured in the same run:
 * 1. req/s and p99 on GET /v1/accounts and POST /v1/payments, against a trivial node:http server
 *    returning the same JSON and against the Prism-backed mock.
 *    Goals: at least 50% of the trivial server's req/s on GET, and at least 10x the mock.
 * 2. Streaming 1,000,000 payments from the sandbox through the client's CSV export: records/s and
 *    peak RSS, with 100,000 as the memory baseline. Goal: 100k records/s, memory flat in the count.
 */
import { fileURLToPath } from "node:url";
import { binPath, compareHttp, startProcess, table } from "@payspec/bench-kit";
import { createPaymentsClient } from "@payspec/payments-client";
import { DEMO_API_KEYS, seedWorkspace } from "@payspec/sandbox";
import { exportRun } from "./payment-export.js";

const SANDBOX_PORT = 4721;
const TRIVIAL_PORT = 4722;
const MOCK_PORT = 4723;
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const key = DEMO_API_KEYS[0];
const auth = { authorization: `Bearer ${key}` };
const [from, to] = seedWorkspace(key)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];
const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}`;

// A completion delay far beyond the run keeps every payment pending, so the export sees them all.
const stopSandbox = await startProcess(
  process.execPath,
  [binPath("@payspec/sandbox", import.meta.resolve)],
  `${sandboxUrl}/`,
  {
    PORT: String(SANDBOX_PORT),
    PAYSPEC_COMPLETE_AFTER_SECONDS: "1000000",
  },
);
const accountsJson = await (await fetch(`${sandboxUrl}/v1/accounts`, { headers: auth })).text();
const stops = [
  stopSandbox,
  await startProcess(tsx, [here("./trivial-server.ts")], `http://127.0.0.1:${TRIVIAL_PORT}/`, {
    PORT: String(TRIVIAL_PORT),
    BENCH_BODY: accountsJson,
  }),
  await startProcess(
    process.execPath,
    [binPath("@payspec/mock", import.meta.resolve)],
    `http://127.0.0.1:${MOCK_PORT}/`,
    { PORT: String(MOCK_PORT) },
  ),
];

try {
  const create = JSON.stringify({ amount: 1000, currency: "TRY", method: "eft", from_account: from, to_account: to });
  const json = { ...auth, "content-type": "application/json" };
  const results = await compareHttp([
    { name: "GET  sandbox", url: `${sandboxUrl}/v1/accounts`, headers: auth },
    { name: "GET  trivial node:http", url: `http://127.0.0.1:${TRIVIAL_PORT}/v1/accounts`, headers: auth },
    { name: "GET  prism mock", url: `http://127.0.0.1:${MOCK_PORT}/v1/accounts`, headers: auth },
    { name: "POST sandbox", url: `${sandboxUrl}/v1/payments`, method: "POST", headers: json, body: create },
    {
      name: "POST trivial node:http",
      url: `http://127.0.0.1:${TRIVIAL_PORT}/v1/payments`,
      method: "POST",
      headers: json,
      body: create,
    },
    {
      name: "POST prism mock",
      url: `http://127.0.0.1:${MOCK_PORT}/v1/payments`,
      method: "POST",
      headers: json,
      body: create,
    },
  ]);
  const rps = (name: string) => results.find((r) => r.name === name)?.requestsPerSecond ?? Number.NaN;
  console.log("1. Request throughput, median of 3 interleaved 4 s rounds, 16 connections\n");
  console.log(
    table(
      ["target", "req/s", "p99 ms", "x trivial", "x mock", "non-2xx"],
      results.map((r) => {
        const verb = r.name.slice(0, 4);
        return [
          r.name,
          r.requestsPerSecond,
          r.p99Ms,
          r.requestsPerSecond / rps(`${verb} trivial node:http`),
          r.requestsPerSecond / rps(`${verb} prism mock`),
          r.non2xx,
        ];
      }),
    ),
  );
  const getVsTrivial = rps("GET  sandbox") / rps("GET  trivial node:http");
  const getVsMock = rps("GET  sandbox") / rps("GET  prism mock");
  console.log(
    `\nGET: ${(getVsTrivial * 100).toFixed(0)}% of trivial (goal >= 50%), ${getVsMock.toFixed(1)}x the mock (goal >= 10x)`,
  );

  await fetch(`${sandboxUrl}/_sandbox/reset`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
  const client = createPaymentsClient({ baseUrl: sandboxUrl, apiKey: key, timeoutMs: 120_000 });
  const small = await exportRun(client, 100_000, [from, to]);
  const large = await exportRun(client, 1_000_000, [from, to]);
  console.log("\n2. CSV export through the client (pages of 10,000), one run each\n");
  console.log(
    table(
      ["records", "seconds", "records/s", "CSV MB", "peak RSS MB", "RSS growth MB"],
      [small, large].map((r) => [r.records, r.seconds, r.recordsPerSecond, r.csvMb, r.peakRssMb, r.growthMb]),
    ),
  );
  console.log(
    `\nExport: ${Math.round(large.recordsPerSecond).toLocaleString("en-US")} records/s (goal >= 100,000); peak RSS at 1M is ${(large.peakRssMb / small.peakRssMb).toFixed(2)}x that at 100k (flat is ~1x)`,
  );
} finally {
  for (const stop of stops) stop();
}
