import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "@payspec/test-postgres";
import { describe, expect, it } from "vitest";
import { getText, type ServerProcess, startOnFreePort } from "../src/process-server.js";
import { startingWith, Teardown } from "../src/teardown.js";
import { startHttpServerProcess } from "./support/http-server-process.js";

/** Whether anything still listens on the port on 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("a server's start that fails half-way", () => {
  it("stops the PostgreSQL it started beside the failing step, even when that step failed first", async () => {
    let port = 0;
    const started = startingWith(async (teardown) => {
      await Promise.all([
        teardown.adopt(startPostgres(), async (server) => {
          port = server.port;
          expect(await listening(port)).toBe(true);
          await server.stop();
        }),
        Promise.reject(new Error("the registry could not install the server")),
      ]);
    });
    await expect(started).rejects.toThrow("the registry could not install the server");
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  });

  it("stops its process and removes its directory, the process first, then fails with the step's own error", async () => {
    let process_: ServerProcess | undefined;
    const order: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), "payspec-teardown-test-"));
    const started = startingWith(async (teardown) => {
      teardown.add(async () => {
        order.push(
          `directory (process running: ${process_?.child.exitCode === null && process_?.child.signalCode === null})`,
        );
        await rm(dir, { recursive: true, force: true });
      });
      const { port, server } = await startOnFreePort((port) => startHttpServerProcess(port, dir));
      process_ = server;
      teardown.add(async () => {
        order.push("process");
        await server.stop();
      });
      expect((await getText(`http://127.0.0.1:${port}/`)).text).toBe("up");
      throw new Error("the server did not serve its OpenAPI document");
    });
    await expect(started).rejects.toThrow("the server did not serve its OpenAPI document");
    expect(order).toEqual(["process", "directory (process running: false)"]);
    expect(process_?.child.exitCode !== null || process_?.child.signalCode !== null).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it("undoes every step when one undo fails, and says the first failure", async () => {
    const teardown = new Teardown();
    const undone: string[] = [];
    teardown.add(async () => {
      undone.push("first");
    });
    teardown.add(async () => {
      throw new Error("could not remove the directory");
    });
    teardown.add(async () => {
      undone.push("last");
    });
    await expect(teardown.run()).rejects.toThrow("could not remove the directory");
    expect(undone).toEqual(["last", "first"]);
    await teardown.run();
    expect(undone).toEqual(["last", "first"]);
  });
});
