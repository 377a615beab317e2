import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * How podman runs on these machines (no systemd, no crun, no ulimits to hand out): runc, cgroupfs, and
 * no default ulimits, in a CONTAINERS_CONF of the tests' own. A team's machine needs none of it.
 */
const CONF = join(tmpdir(), "payspec-containers.conf");

function containersConf(): string {
  if (!existsSync(CONF)) {
    writeFileSync(
      CONF,
      '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n',
    );
  }
  return CONF;
}

/** The environment podman and podman-compose run with here. */
export function podmanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: containersConf(), ...extra };
}

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command's exit code and output, whatever the code; bounded in time (a hang fails, it never holds the run). */
export function ran(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        env: options.env ?? podmanEnv(),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        timeout: options.timeoutMs ?? 600_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        // podman's own complaints here (no systemd to time health checks) are not the container's words.
        const own = String(stderr)
          .split("\n")
          .filter((line) => !/^time="[^"]*" level=/.test(line))
          .join("\n");
        resolve({ code, stdout: String(stdout), stderr: own });
      },
    );
  });
}

/** podman, failing with its own words when it fails. */
export async function podman(args: readonly string[], timeoutMs?: number): Promise<string> {
  const result = await ran("podman", args, timeoutMs === undefined ? {} : { timeoutMs });
  if (result.code !== 0)
    throw new Error(`podman ${args.join(" ")} failed (exit ${result.code}):\n${result.stderr.trim().slice(-3000)}`);
  return result.stdout.trim();
}

/** Whether podman can run containers on this machine; why not otherwise. */
export async function podmanProblem(): Promise<string | undefined> {
  const version = await ran("podman", ["--version"]);
  if (version.code !== 0)
    return "podman is not installed: bash scripts/install-system-deps.sh installs it (Debian's podman, runc, podman-compose).";
  return undefined;
}

/** The host port a container's `port` is published on (`podman run -p 127.0.0.1::PORT`). */
export async function publishedPort(container: string, port: number): Promise<number> {
  const line = await podman(["port", container, `${port}/tcp`]);
  const published = Number(/:(\d+)\s*$/.exec(line.split("\n")[0] ?? "")?.[1]);
  if (!Number.isInteger(published)) throw new Error(`${container} publishes no port for ${port}: ${line}`);
  return published;
}

/** Asks `url` until it answers `status` (bounded); the last failure when it never does. */
export async function untilAnswers(url: string, status = 200, withinMs = 60_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      await response.arrayBuffer();
      if (response.status === status) return;
      last = `answered ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer ${status} within ${withinMs / 1000} s (${last}).`);
}
