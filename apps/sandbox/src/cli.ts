#!/usr/bin/env node
import { parseServerArgs, startupProblemMessage } from "@payspec/server-kit";
import type { RunningSandbox } from "./app/server.js";
import { configFromEnv, DEFAULT_PORT, type SandboxConfig } from "./infrastructure/config/config.js";

const USAGE = `payspec-sandbox: both payment APIs, stateful, on one port (http://127.0.0.1:4010).

Usage: payspec-sandbox [--port N] [--host ADDRESS]

  --port N         port to listen on (default: $PORT or 4010; 0 picks a free one)
  --host ADDRESS   address to listen on (default: $HOST or 127.0.0.1)
  -h, --help       this text

Every other setting is an environment variable (PAYSPEC_API_KEYS, PAYSPEC_SAMPLE_PAYMENTS=off, …):
see the README of @payspec/sandbox.`;

async function main(): Promise<number> {
  const args = parseServerArgs(process.argv.slice(2), USAGE);
  if (!args.ok) {
    (args.exitCode === 0 ? process.stdout : process.stderr).write(args.message);
    return args.exitCode;
  }
  let config: SandboxConfig | undefined;
  let sandbox: RunningSandbox;
  try {
    config = configFromEnv();
    // The app is loaded once the arguments and settings are read: -h and a wrong setting answer at once.
    const { startSandbox } = await import("./app/server.js");
    sandbox = await startSandbox({
      ...config,
      // Sample payments make a fresh sandbox show something; PAYSPEC_SAMPLE_PAYMENTS=off starts empty.
      samplePayments: process.env.PAYSPEC_SAMPLE_PAYMENTS !== "off",
      processMetrics: true,
      ...(args.port === undefined ? {} : { port: args.port }),
      ...(args.host === undefined ? {} : { host: args.host }),
    });
  } catch (error) {
    const where = { port: args.port ?? config?.port ?? DEFAULT_PORT, host: args.host ?? config?.host ?? "127.0.0.1" };
    const message = startupProblemMessage(error, where);
    if (message === undefined) throw error;
    process.stderr.write(`payspec-sandbox: ${message}\n`);
    return 2;
  }
  const [{ startupBanner }, { stopOnSignals, SHUTDOWN_BOUND_MS }] = await Promise.all([
    import("./app/startup-banner.js"),
    import("./app/graceful-shutdown.js"),
  ]);
  process.stdout.write(startupBanner(sandbox.config, sandbox.url));
  // A drain answers what is in flight (a long export download included) for most of the bound, and
  // keeps a few seconds to stop the background loops and release the pool before it runs out.
  stopOnSignals(() => sandbox.close({ graceMs: SHUTDOWN_BOUND_MS - 5_000 }));
  return 0;
}

const code = await main();
if (code !== 0) process.exit(code);
