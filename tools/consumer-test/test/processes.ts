import { type ChildProcess, spawn } from "node:child_process";

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, or kills it after `timeoutMs`; never hangs a test. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command and waits (at most 60 s) until `readyUrl` answers 200. */
export async function startServer(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; readyUrl: string; headers?: Record<string, string> },
): Promise<{ child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(options.readyUrl, { headers: options.headers ?? {} }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { child, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${command} ${args.join(" ")} did not answer ${options.readyUrl} in time:\n${output}`);
}

export { freePort } from "@payspec/test-postgres";
