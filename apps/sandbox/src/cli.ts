#!/usr/bin/env node
import { parseArgs } from "node:util";
import { configFromEnv } from "./config.js";
import { startSandbox } from "./server.js";
import { startupBanner } from "./startup-banner.js";

const USAGE = `payspec-sandbox: both payment APIs, stateful, on one port (http://127.0.0.1:4010).

Usage: payspec-sandbox [--port N] [--host ADDRESS]

  --port N         port to listen on (default: $PORT or 4010; 0 picks a free one)
  --host ADDRESS   address to listen on (default: $HOST or 127.0.0.1)
  --help           this text

Every other setting is an environment variable (PAYSPEC_API_KEYS, PAYSPEC_SAMPLE_PAYMENTS=off, …):
see the README of @payspec/sandbox.`;

function portOf(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a whole number from 0 to 65535, got "${text}".`);
  }
  return port;
}

async function main(argv: string[]): Promise<number> {
  let flags: { port?: string | undefined; host?: string | undefined; help?: boolean | undefined };
  try {
    flags = parseArgs({
      args: argv,
      options: { port: { type: "string" }, host: { type: "string" }, help: { type: "boolean" } },
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let config = configFromEnv();
  try {
    config = {
      ...config,
      // Sample payments make a fresh sandbox show something; PAYSPEC_SAMPLE_PAYMENTS=off starts empty.
      samplePayments: process.env.PAYSPEC_SAMPLE_PAYMENTS !== "off",
      ...(flags.port === undefined ? {} : { port: portOf(flags.port) }),
      ...(flags.host === undefined ? {} : { host: flags.host }),
    };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const sandbox = await startSandbox(config);
  process.stdout.write(startupBanner(sandbox.config, sandbox.url));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void sandbox.close().then(() => process.exit(0));
    });
  }
  return 0;
}

// `pnpm <script> -- --port 5000` passes the `--` along.
const args = process.argv.slice(2);
const code = await main(args[0] === "--" ? args.slice(1) : args);
if (code !== 0) process.exit(code);
