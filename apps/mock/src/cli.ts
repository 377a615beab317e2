#!/usr/bin/env node
import { parseArgs } from "node:util";
import { DEFAULT_MOCK_PORT, startMock } from "./server.js";

const USAGE = `payspec-mock: both payment APIs mocked by Prism from their specs, on one port.

Usage: payspec-mock [--port N] [--host ADDRESS] [--dynamic]

  --port N         port to listen on (default: $PORT or ${DEFAULT_MOCK_PORT}; 0 picks a free one)
  --host ADDRESS   address to listen on (default: $HOST or 127.0.0.1)
  --dynamic        schema-generated data instead of the specs' examples (or PAYSPEC_MOCK_DYNAMIC=true)
  --help           this text

Per request: 'Prefer: code=404', 'Prefer: example=declined', 'Prefer: dynamic=true'.`;

async function main(argv: string[]): Promise<number> {
  let flags: {
    port?: string | undefined;
    host?: string | undefined;
    dynamic?: boolean | undefined;
    help?: boolean | undefined;
  };
  try {
    flags = parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        dynamic: { type: "boolean" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = Number(flags.port ?? process.env.PORT ?? DEFAULT_MOCK_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`--port must be a whole number from 0 to 65535, got "${flags.port ?? process.env.PORT}".\n`);
    return 2;
  }
  const dynamic = flags.dynamic === true || process.env.PAYSPEC_MOCK_DYNAMIC === "true";
  const host = flags.host ?? process.env.HOST ?? "127.0.0.1";
  const mock = await startMock({ port, host, dynamic, logRequests: process.env.PAYSPEC_LOG === "requests" });
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

// `pnpm <script> -- --port 5000` passes the `--` along.
const args = process.argv.slice(2);
const code = await main(args[0] === "--" ? args.slice(1) : args);
if (code !== 0) process.exit(code);
