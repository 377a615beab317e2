import { type ChildProcess, spawn } from "node:child_process";

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

/** Where a server says it listens, in the words both CLIs print once they listen. */
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts a long-running server command told to pick a free port itself (`--port 0` in `args`) and
 * waits, at most 60 s, until it has printed `listening on <url>` and `<url><readyPath>` answers 200.
 * The URL is read from the command's own words. A port picked here and freed for the command is not
 * reserved: another test's server took one meanwhile in CI, answered its URL, and was taken for the
 * command, which had failed to listen. Fails as soon as the command ends, with its output.
 */
export async function startServer(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; readyPath: string; headers?: Record<string, string> },
): Promise<{ child: ChildProcess; output: () => string; stop: () => Promise<void>; url: string }> {
  const child = spawnGroup(command, args, options);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const stop = () => stopGroup(child);
  const deadline = Date.now() + 60_000;
  const running = () => child.exitCode === null && child.signalCode === null;
  while (Date.now() < deadline && running()) {
    const url = LISTENING.exec(output)?.[1];
    const ready =
      url !== undefined &&
      (await fetch(`${url}${options.readyPath}`, { headers: options.headers ?? {} }).then(
        (r) => r.status === 200,
        () => false,
      ));
    if (ready) return { child, output: () => output, stop, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const ended = !running();
  await stop();
  throw new Error(
    `${command} ${args.join(" ")} ${ended ? `ended (${child.exitCode === null ? child.signalCode : `exit code ${child.exitCode}`})` : "was still starting after 60 s"} before it said "listening on <url>" and answered ${options.readyPath} with 200:\n${output}`,
  );
}
