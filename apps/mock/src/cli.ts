#!/usr/bin/env node
import { parseServerArgs, portNumber, startupProblemMessage } from "@payspec/server-kit";
import { DEFAULT_MOCK_PORT } from "./default-port.js";

const USAGE = `payspec-mock: both payment APIs mocked by Prism from their specs, on one port.

Usage: payspec-mock [--port N] [--host ADDRESS] [--dynamic]

  --port N         port to listen on (default: $PORT or ${DEFAULT_MOCK_PORT}; 0 picks a free one)
  --host ADDRESS   address to listen on (default: $HOST or 127.0.0.1)
  --dynamic        schema-generated data instead of the specs' examples (or PAYSPEC_MOCK_DYNAMIC=true)
  -h, --help       this text

Per request: 'Prefer: code=404', 'Prefer: example=declined', 'Prefer: dynamic=true'.`;

async function main(): Promise<number> {
  const args = parseServerArgs(process.argv.slice(2), USAGE, ["dynamic"]);
  if (!args.ok) {
    (args.exitCode === 0 ? process.stdout : process.stderr).write(args.message);
    return args.exitCode;
  }
  const port = args.port ?? portNumber(process.env.PORT ?? String(DEFAULT_MOCK_PORT));
  if (port === undefined) {
    process.stderr.write(
      `payspec-mock: PORT must be a whole number from 0 to 65535, got "${process.env.PORT}": fix it or unset it for ${DEFAULT_MOCK_PORT}.\n`,
    );
    return 2;
  }
  const dynamicSetting = process.env.PAYSPEC_MOCK_DYNAMIC;
  if (dynamicSetting !== undefined && !["", "true", "false"].includes(dynamicSetting)) {
    process.stderr.write(
      `payspec-mock: PAYSPEC_MOCK_DYNAMIC must be true or false, got "${dynamicSetting}": fix it or unset it for the specs' examples.\n`,
    );
    return 2;
  }
  const dynamic = args.on.has("dynamic") || dynamicSetting === "true";
  const host = args.host ?? process.env.HOST ?? "127.0.0.1";
  // Prism is loaded once the arguments are read (seconds on a busy machine): -h and a mistyped flag answer at once.
  const { startMock } = await import("./server.js");
  let mock: Awaited<ReturnType<typeof startMock>>;
  try {
    mock = await startMock({ port, host, dynamic, logRequests: process.env.PAYSPEC_LOG === "requests" });
  } catch (error) {
    const message = startupProblemMessage(error, { port, host });
    if (message === undefined) throw error;
    process.stderr.write(`payspec-mock: ${message}\n`);
    return 2;
  }
  process.stdout.write(
    [
      `payspec mock (Prism) listening on ${mock.url}`,
      "  payments API under /v1, card gateway at /auth/login and under /api/v1",
      `  ${dynamic ? "dynamic data (--dynamic)" : "static examples"}; choose per request with 'Prefer: code=404, example=declined, dynamic=true'`,
      "",
    ].join("\n"),
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void mock.close().then(() => process.exit(0)));
  }
  return 0;
}

const code = await main();
if (code !== 0) process.exit(code);
