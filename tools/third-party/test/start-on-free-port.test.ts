import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
  getText,
  PortTakenError,
  type ServerProcess,
  startOnFreePort,
  startProcess,
} from "../src/process-server.js";
import { startHttpServerProcess } from "./support/http-server-process.js";

/** Holds a port on 127.0.0.1 as another process's server would (one that hangs up on every connection). */
async function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

const toStop: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of toStop.splice(0)) await stop();
});

describe("startOnFreePort", () => {
  it("starts the server again on another port when another process took the first one", async () => {
    const taken = await occupy();
    toStop.push(() => new Promise((resolve) => taken.server.close(() => resolve())));
    const offered: number[] = [];
    const choose = async () => {
      const port = offered.length === 0 ? taken.port : await freePort();
      offered.push(port);
      return port;
    };
    const { port, server } = await startOnFreePort(startHttpServerProcess, { choose });
    toStop.push(() => server.stop());
    expect(offered).toEqual([taken.port, port]);
    expect(port).not.toBe(taken.port);
    expect((await getText(`http://127.0.0.1:${port}/`)).text).toBe("up");
  });

  it("says the port was taken when every attempt found it so", async () => {
    const taken = await occupy();
    toStop.push(() => new Promise((resolve) => taken.server.close(() => resolve())));
    let attempts = 0;
    const choose = async () => {
      attempts++;
      return taken.port;
    };
    const failed = startOnFreePort(startHttpServerProcess, { choose, attempts: 2 });
    await expect(failed).rejects.toBeInstanceOf(PortTakenError);
    await expect(failed).rejects.toThrow(/test server exited at start:[\s\S]*EADDRINUSE/);
    expect(attempts).toBe(2);
  });

  it("does not retry a server that failed for another reason, and fails with its own words", async () => {
    let attempts = 0;
    const choose = async () => {
      attempts++;
      return freePort();
    };
    const start = (_port: number): Promise<ServerProcess> =>
      startProcess(process.execPath, ["-e", `console.error("no configuration file"); process.exit(3)`], {
        name: "misconfigured server",
        cwd: process.cwd(),
        ms: 20_000,
        env: process.env,
        ready: async () => false,
      });
    await expect(startOnFreePort(start, { choose })).rejects.toThrow(
      /misconfigured server exited at start:\s+no configuration file/,
    );
    expect(attempts).toBe(1);
  });
});
