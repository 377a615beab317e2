import { getText, startProcess } from "../../src/process-server.js";

/** A real Node HTTP server process told its port, as Unleash, WireMock and the others are; it answers "up". */
export const startHttpServerProcess = (port: number, cwd = process.cwd()) =>
  startProcess(
    process.execPath,
    ["-e", `require("node:http").createServer((q, s) => s.end("up")).listen(${port}, "127.0.0.1")`],
    {
      name: "test server",
      cwd,
      ms: 20_000,
      env: process.env,
      ready: async () => (await getText(`http://127.0.0.1:${port}/`)).status === 200,
    },
  );
