import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "@payspec/test-postgres";

export { freePort };

/**
 * A server that exited at start because its port was taken (Node's EADDRINUSE, Java's BindException,
 * Django's "That port is already in use", PostgreSQL's "could not bind"): `startOnFreePort` retries it.
 */
export class PortTakenError extends Error {
  override readonly name = "PortTakenError";
}
const PORT_TAKEN = /EADDRINUSE|address already in use|port is already in use|could not bind/i;

export interface ServerProcess {
  readonly child: ChildProcess;
  /** What the process printed so far, for an error message when it does not come up. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts a server process and waits until `ready()` says yes (polled), at most `ms`; fails with the
 * process's own output when it exits or stays unready. Stopped with SIGTERM, then SIGKILL.
 */
export async function startProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: () => Promise<boolean>; ms: number; name: string },
): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killed = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(killed);
  };
  process.once("exit", () => child.kill("SIGKILL"));
  const deadline = Date.now() + options.ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `${options.name} exited at start:\n${output}`;
      throw PORT_TAKEN.test(output) ? new PortTakenError(message) : new Error(message);
    }
    if (await options.ready().catch(() => false)) return { child, log: () => output, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`${options.name} did not come up within ${options.ms / 1000} s:\n${output}`);
}

/** GET a loopback URL: status and text, or undefined when nothing answers. */
export async function getText(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const reply = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: reply.status, text: await reply.text() };
}

/**
 * Starts a server that is told its port: on a free port, and again on another one (at most `attempts`
 * in all) when another process took that port before the server bound it.
 */
export async function startOnFreePort<T>(
  start: (port: number) => Promise<T>,
  options: { attempts?: number; choose?: () => Promise<number> } = {},
): Promise<{ port: number; server: T }> {
  const { attempts = 3, choose = freePort } = options;
  for (let attempt = 1; ; attempt++) {
    const port = await choose();
    try {
      return { port, server: await start(port) };
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
    }
  }
}
