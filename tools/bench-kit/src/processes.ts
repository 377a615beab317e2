import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cpuPinning } from "./cpu-pinning.js";

export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Pin the process to the server core (`taskset`), away from the load generator's core, so a
   * server is measured on a core of its own, as it runs in production. Ignored where pinning is not
   * possible (one core, no taskset).
   */
  readonly pinned?: boolean;
}

/** Stops a started process; `pid` is its process id, for reading what it uses (/proc/<pid>/status). */
export type StartedProcess = (() => void) & { readonly pid: number | undefined };

/** Starts a command and waits until `ready(url)` answers; the returned stop kills it. */
export async function startProcess(
  command: string,
  args: readonly string[],
  ready: string,
  { env = {}, pinned = false }: StartOptions = {},
): Promise<StartedProcess> {
  const pinning = cpuPinning();
  const [file, argv] =
    pinned && pinning.available
      ? ["taskset", ["-c", String(pinning.serverCore), command, ...args]]
      : [command, [...args]];
  const child = spawn(file, argv, { env: { ...process.env, ...env }, stdio: "ignore" });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await fetch(ready);
      // taskset runs the command in its own process (exec), so the pid is the command's.
      return Object.assign(() => void child.kill("SIGTERM"), { pid: child.pid });
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`${command} ${args.join(" ")} did not answer at ${ready} within 60 s.`);
}

/**
 * The command-line entry of an installed workspace package (its `bin`), for starting it as a user
 * would: `binPath("@payspec/sandbox", import.meta.resolve)`.
 */
export function binPath(pkg: string, resolve: (specifier: string) => string): string {
  const manifestUrl = resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(new URL(manifestUrl), "utf8")) as { bin?: Record<string, string> };
  const bin = Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${pkg} has no bin in its package.json.`);
  return fileURLToPath(new URL(bin, manifestUrl));
}
