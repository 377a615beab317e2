import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { freePort, startServer, startServerOnFreePort } from "./processes.js";

/** The sandbox's CLI as this workspace built it: a real server that says where it listens. */
const require = createRequire(import.meta.url);
const sandboxCli = join(dirname(require.resolve("@payspec/sandbox/package.json")), "dist", "cli.mjs");
const options = { cwd: process.cwd(), env: { ...process.env, PAYSPEC_SAMPLE_PAYMENTS: "off" }, headers: {} };

it("never takes another process's answer on its port for the command's: it says why the command did not start", async () => {
  // Another test's server, on the port this one picked: it answers the ready URL with a 200.
  const port = await freePort();
  const impostor = createServer((_request, response) => response.end("[]"));
  await new Promise<void>((resolve) => impostor.listen(port, "127.0.0.1", resolve));
  try {
    const started = startServer(process.execPath, [sandboxCli, "--port", String(port)], {
      ...options,
      readyUrl: `http://127.0.0.1:${port}/v1/accounts`,
    });
    // Were it taken for started, it is stopped all the same: no test leaves a process behind.
    const outcome = await started.then(
      (server) => server.stop().then(() => "taken for started"),
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/is in use/);
  } finally {
    await new Promise((resolve) => impostor.close(resolve));
  }
}, 90_000);

it("starts the command on a port of its own, and stops it", async () => {
  const sandbox = await startServerOnFreePort(process.execPath, (port) => [sandboxCli, "--port", String(port)], {
    ...options,
    readyPath: "/healthz",
  });
  try {
    expect(sandbox.output()).toContain(`listening on ${sandbox.url}`);
    expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
  } finally {
    await sandbox.stop();
  }
  expect(sandbox.child.exitCode !== null || sandbox.child.signalCode !== null).toBe(true);
}, 90_000);
