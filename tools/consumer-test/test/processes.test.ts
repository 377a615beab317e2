import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { startServer } from "./processes.js";

/** The sandbox's CLI as this workspace built it: a real server that says where it listens. */
const require = createRequire(import.meta.url);
const sandboxCli = join(dirname(require.resolve("@payspec/sandbox/package.json")), "dist", "cli.mjs");
const options = { cwd: process.cwd(), env: { ...process.env, PAYSPEC_SAMPLE_PAYMENTS: "off" }, readyPath: "/healthz" };

it("starts a server on the port it picked itself, at the URL it printed, and stops it", async () => {
  const sandbox = await startServer(process.execPath, [sandboxCli, "--port", "0"], options);
  try {
    const port = Number(new URL(sandbox.url).port);
    expect(port).toBeGreaterThan(0);
    expect(sandbox.output()).toContain(`listening on ${sandbox.url}`);
    expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
  } finally {
    await sandbox.stop();
  }
  expect(sandbox.child.exitCode !== null || sandbox.child.signalCode !== null).toBe(true);
}, 90_000);

it("fails with the command's own words as soon as it ends without listening", async () => {
  const outcome = await startServer(process.execPath, [sandboxCli, "--port", "not-a-port"], options).then(
    (server) => server.stop().then(() => "taken for started"),
    (error: Error) => error.message,
  );
  expect(outcome).toMatch(/ended \(exit code 2\) before it said "listening on <url>"/);
  // The sandbox's own sentence, not a timeout's.
  expect(outcome).toMatch(/--port/);
}, 90_000);
