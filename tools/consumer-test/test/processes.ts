import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "@payspec/test-postgres";

/**
 * Every process group this file started and has not seen end. `npx payspec-sandbox` is npx, then a
 * shell, then node: killing npx alone left the sandbox running after the suite (twice in one loaded
 * run), so each command runs in a group of its own and the whole group is signalled.
 */
const running = new Set<number>();
process.once("exit", () => {
  for (const pid of running) signalGroup(pid, "SIGKILL");
});

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has ended already.
  }
}

/** Starts a command in a process group of its own, remembered until it ends. */
function spawnGroup(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    running.add(pid);
    child.once("exit", () => {
      // The command is gone; what it started in its group goes with it.
      signalGroup(pid, "SIGKILL");
      running.delete(pid);
    });
  }
  return child;
}

/** Stops a command and everything it started: SIGTERM to its group, SIGKILL after 5 s. */
function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    child.once("exit", () => resolve());
    signalGroup(child.pid, "SIGTERM");
    setTimeout(() => child.pid !== undefined && signalGroup(child.pid, "SIGKILL"), 5_000).unref();
  });
}

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
    const child = spawnGroup(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(
      () => child.pid !== undefined && signalGroup(child.pid, "SIGKILL"),
      options.timeoutMs ?? 120_000,
    );
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Starts a long-running command and waits (at most 60 s) until `readyUrl` answers 200 and the command
 * itself has printed `listening on <readyUrl's origin>`. The port is free when a test picks it, not
 * reserved: another test's server can take it meanwhile and answer the URL, while the command here
 * fails to listen (seen in CI, with this command's output still empty).
 */
export async function startServer(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; readyUrl: string; headers?: Record<string, string> },
): Promise<{ child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const child = spawnGroup(command, args, options);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const stop = () => stopGroup(child);
  const listening = `listening on ${new URL(options.readyUrl).origin}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok =
      output.includes(listening) &&
      (await fetch(options.readyUrl, { headers: options.headers ?? {} }).then(
        (r) => r.status === 200,
        () => false,
      ));
    if (ok) return { child, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(
    `${command} ${args.join(" ")} did not say "${listening}" and answer ${options.readyUrl} in time:\n${output}`,
  );
}

/**
 * startServer on a port picked free, with `args(port)`, and once more on another when the command says
 * its port is in use (another test took it meanwhile). Resolves with the server's base URL.
 */
export async function startServerOnFreePort(
  command: string,
  args: (port: number) => readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; readyPath: string; headers?: Record<string, string> },
): Promise<Awaited<ReturnType<typeof startServer>> & { url: string; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    try {
      const server = await startServer(command, args(port), { ...options, readyUrl: `${url}${options.readyPath}` });
      return { ...server, url, port };
    } catch (error) {
      if (attempt === 3 || !/is in use/.test((error as Error).message)) throw error;
    }
  }
}

export { freePort };
