import { execFile } from "node:child_process";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const SANDBOX = fileURLToPath(new URL("../../dist/cli.mjs", import.meta.url));
const MOCK = fileURLToPath(new URL("../../../mock/dist/cli.mjs", import.meta.url));

/** A user's mistake at start: exit 2, one or two sentences, no stack frame. */
async function fails(cli: string, args: string[], env: Record<string, string> = {}) {
  const result = await exec(process.execPath, [cli, ...args], {
    env: { ...process.env, PAYSPEC_SAMPLE_PAYMENTS: "off", ...env },
    // A guard against a hang: starting Prism took over 30 s with one core busy and the check on the other.
    timeout: 90_000,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  expect(`${result.stdout}${result.stderr}`).not.toMatch(/^\s+at /m);
  return result;
}

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe("payspec-sandbox", () => {
  it("says a port is in use and what to do", async () => {
    const result = await fails(SANDBOX, ["--port", String(busyPort)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `port ${busyPort} is in use: pass --port (0 picks a free one) or stop the other process.`,
    );
  });

  it("says what is wrong with its settings: a database without its secret, a database it cannot reach, a bad value", async () => {
    const noSecret = await fails(SANDBOX, ["--port", "0"], {
      PAYSPEC_DATABASE_URL: "postgres://payspec@127.0.0.1:1/none",
    });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain("PAYSPEC_DATABASE_URL needs PAYSPEC_SANDBOX_SECRET as well");
    const unreachable = await fails(SANDBOX, ["--port", "0"], {
      PAYSPEC_DATABASE_URL: "postgres://payspec@127.0.0.1:1/none",
      PAYSPEC_SANDBOX_SECRET: "a-long-enough-secret",
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("could not use its PostgreSQL database");
    expect(unreachable.stderr).toContain("Check the URL");
    const badValue = await fails(SANDBOX, ["--port", "0"], { PAYSPEC_COMPLETE_AFTER_SECONDS: "soon" });
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('PAYSPEC_COMPLETE_AFTER_SECONDS must be a number of at least 0, got "soon"');
    for (const size of ["0", "2.5", "many"]) {
      const badPool = await fails(SANDBOX, ["--port", "0"], { PAYSPEC_DATABASE_POOL_SIZE: size });
      expect(badPool.code).toBe(2);
      expect(badPool.stderr).toContain("PAYSPEC_DATABASE_POOL_SIZE must be a whole number from 1 to 1000");
    }
    const badSmtp = await fails(SANDBOX, ["--port", "0"], { PAYSPEC_SMTP_URL: "mail.example.com:25" });
    expect(badSmtp.code).toBe(2);
    expect(badSmtp.stderr).toContain("PAYSPEC_SMTP_URL must be an smtp:// or smtps:// URL");
    for (const [name, value] of [
      ["PAYSPEC_SAMPLE_PAYMENTS", "no"],
      ["PAYSPEC_SANDBOX_CONTROL", "disabled"],
      ["PAYSPEC_LOG", "verbose"],
    ]) {
      const badSwitch = await fails(SANDBOX, ["--port", "0"], { [name as string]: value as string });
      expect(badSwitch.code).toBe(2);
      expect(badSwitch.stderr.trim().split("\n")).toHaveLength(1);
      expect(badSwitch.stderr).toContain(`${name} must be `);
    }
    const badOption = await fails(SANDBOX, ["--prot", "5000"]);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("Usage: payspec-sandbox");
  });

  it("prints its usage for -h and --help", async () => {
    for (const flag of ["-h", "--help"]) {
      const result = await fails(SANDBOX, [flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Usage: payspec-sandbox");
    }
  });
});

describe("payspec-mock", () => {
  it("says a port is in use, and prints its usage for -h", async () => {
    const inUse = await fails(MOCK, ["--port", String(busyPort)]);
    expect(inUse.code).toBe(2);
    expect(inUse.stderr).toContain(`port ${busyPort} is in use`);
    const help = await fails(MOCK, ["-h"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: payspec-mock");
  });

  it("names a bad setting in one sentence: PORT, PAYSPEC_MOCK_DYNAMIC", async () => {
    for (const [name, value] of [
      ["PORT", "http"],
      ["PAYSPEC_MOCK_DYNAMIC", "yes"],
    ]) {
      const bad = await fails(MOCK, [], { [name as string]: value as string });
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
      expect(bad.stderr).toContain(`payspec-mock: ${name} must be`);
    }
  });
});
