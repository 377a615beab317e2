import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../dist/cli.mjs", import.meta.url));
const START_MS = 90_000;

export interface SandboxProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited (after a kill, or by itself). */
  readonly exited: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The built `payspec-sandbox` command in a process of its own, on a free port of 127.0.0.1: what a
 * team runs, so several instances, SIGKILL and restarts are real. `env` adds settings
 * (PAYSPEC_DATABASE_URL, …); sample payments are off unless set.
 */
export async function startSandboxProcess(env: Record<string, string>): Promise<SandboxProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (pnpm --filter @payspec/sandbox build).`);
  const child = spawn(process.execPath, [CLI, "--port", "0"], {
    env: { ...process.env, PAYSPEC_SAMPLE_PAYMENTS: "off", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Whatever happens to the test, the process ends with the test run.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.off("exit", killOnExit));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    // A bound against a hang, not a measure of speed: on a loaded CI machine a start took over 20 s.
    // A sandbox that did not start is stopped, so it does not outlive the test.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The sandbox did not start within ${START_MS / 1000} s:\n${output}`));
    }, START_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The sandbox exited at start:\n${output}`));
    });
  });
  return {
    url,
    child,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
