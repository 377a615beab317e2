import { DEFAULT_MOCK_PORT, startMock } from "./server.js";

const port = process.env.PORT ? Number(process.env.PORT) : DEFAULT_MOCK_PORT;
const dynamic = process.argv.includes("--dynamic") || process.env.PAYSPEC_MOCK_DYNAMIC === "true";
const mock = await startMock({ port, dynamic, logRequests: process.env.PAYSPEC_LOG === "requests" });
process.stdout.write(
  [
    `payspec mock (Prism) listening on ${mock.url}`,
    "  payments API under /v1, card gateway at /auth/login and under /api/v1",
    `  ${dynamic ? "dynamic data (--dynamic)" : "static examples"}; choose per request with 'Prefer: code=404, example=declined, dynamic=true'`,
    "",
  ].join("\n"),
);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void mock.close().then(() => process.exit(0)));
