/**
 * The mock's throughput and p99 on GET /v1/accounts and POST /api/v1/payments/card, against the plain
 * Prism CLI serving one spec with quiet logging, all measured in this run on loopback.
 * Goal: no slower than that Prism CLI while serving both APIs.
 */
import { fileURLToPath } from "node:url";
import { binPath, compareHttp, startProcess, table } from "@payspec/bench-kit";
import { cardGatewaySpec, specExamples, specPath } from "@payspec/specs";

const MOCK_PORT = 4711;
const PRISM_PAYMENTS_PORT = 4712;
const PRISM_GATEWAY_PORT = 4713;
const prismBin = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const mockMain = binPath("@payspec/mock", import.meta.resolve);

const card = specExamples(cardGatewaySpec).find(
  (e) => e.operationId === "createCardPayment" && e.part === "request",
)?.value;
const auth = { authorization: "Bearer bench" };
const json = { ...auth, "content-type": "application/json" };

const stops = [
  await startProcess(process.execPath, [mockMain], `http://127.0.0.1:${MOCK_PORT}/`, { PORT: String(MOCK_PORT) }),
  await startProcess(
    prismBin,
    ["mock", "-h", "127.0.0.1", "-p", String(PRISM_PAYMENTS_PORT), "-v", "silent", specPath("payments-accounts")],
    `http://127.0.0.1:${PRISM_PAYMENTS_PORT}/`,
  ),
  await startProcess(
    prismBin,
    ["mock", "-h", "127.0.0.1", "-p", String(PRISM_GATEWAY_PORT), "-v", "silent", specPath("card-gateway")],
    `http://127.0.0.1:${PRISM_GATEWAY_PORT}/`,
  ),
];

try {
  const results = await compareHttp([
    { name: "GET /v1/accounts  payspec mock", url: `http://127.0.0.1:${MOCK_PORT}/v1/accounts`, headers: auth },
    { name: "GET /v1/accounts  prism CLI", url: `http://127.0.0.1:${PRISM_PAYMENTS_PORT}/v1/accounts`, headers: auth },
    {
      name: "POST card payment payspec mock",
      url: `http://127.0.0.1:${MOCK_PORT}/api/v1/payments/card`,
      method: "POST",
      headers: json,
      body: JSON.stringify(card),
    },
    {
      name: "POST card payment prism CLI",
      url: `http://127.0.0.1:${PRISM_GATEWAY_PORT}/api/v1/payments/card`,
      method: "POST",
      headers: json,
      body: JSON.stringify(card),
    },
  ]);
  const baseline = (i: number) => results[i - (i % 2) + 1]?.requestsPerSecond ?? 1;
  console.log("Mock throughput, median of 3 interleaved 4 s rounds, 16 connections\n");
  console.log(
    table(
      ["target", "req/s", "p99 ms", "x prism req/s", "non-2xx"],
      results.map((r, i) => [r.name, r.requestsPerSecond, r.p99Ms, r.requestsPerSecond / baseline(i), r.non2xx]),
    ),
  );
  const met = results.every((r, i) => i % 2 === 1 || r.requestsPerSecond >= baseline(i));
  console.log(`\nGoal (no slower than the Prism CLI on either operation): ${met ? "met" : "not met"}`);
} finally {
  for (const stop of stops) stop();
}
