import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface PostgresServer {
  /** `postgres://payspec@127.0.0.1:<port>/postgres`: the maintenance database, for admin statements. */
  readonly url: string;
  readonly port: number;
  /** A new, empty database on this server; its URL. Each test file or benchmark gets its own. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its data directory. */
  stop(): Promise<void>;
  /**
   * Takes the server away as an outage does, keeping its data: a fast shutdown (every connection
   * terminated, nothing listening), until `comeBack()` starts it again on the same port.
   */
  goAway(): Promise<void>;
  /** Starts the server taken away by `goAway()` again, on the same port and data; resolves once it accepts connections. */
  comeBack(): Promise<void>;
}

export interface StartPostgresOptions {
  /**
   * fsync and full-page writes off: a throwaway server does not need to survive a power cut, and tests
   * run several times faster. Benchmarks keep them on (the default of a real server). Default: true.
   */
  readonly fast?: boolean;
}

const INSTALL_HINT =
  "Install Debian's postgresql package (bash scripts/install-system-deps.sh does), or set PAYSPEC_PG_BINDIR to the directory holding initdb and postgres.";

/** Where initdb and postgres live: PAYSPEC_PG_BINDIR, Debian's versioned directory (newest), or PATH. */
export function postgresBinDir(): string {
  const configured = process.env.PAYSPEC_PG_BINDIR;
  if (configured) {
    if (!existsSync(join(configured, "initdb"))) throw new Error(`PAYSPEC_PG_BINDIR=${configured} has no initdb.`);
    return configured;
  }
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres"))) return dir;
  }
  throw new Error(`PostgreSQL's initdb was not found. ${INSTALL_HINT}`);
}

/**
 * initdb refuses to run as root, so as root the server runs as the `postgres` user the Debian package
 * creates (Node's spawn switches uid/gid itself: no sudo, no su).
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error(`Running as root needs a 'postgres' user to run PostgreSQL as. ${INSTALL_HINT}`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The lowest port the kernel hands out by itself, to a connection's own end or to a listen on port 0
 * (`net.ipv4.ip_local_port_range`; Linux's default where it cannot be read).
 */
function ephemeralPortsStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 1024) return low;
  } catch {
    // Not Linux: its default is the best guess.
  }
  return 32768;
}

/** Where freePort looks: above the ports services usually claim, below the ones the kernel hands out. */
const PORTS_FROM = 20000;

/** Whether nothing listens on the port on 127.0.0.1 now: bound, then released. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A free TCP port on 127.0.0.1, for a server that is told its port (PostgreSQL, the real servers the
 * verifier is proven on). It is chosen at random below the kernel's ephemeral range: a port from that
 * range (what a listen on port 0 gives) can be taken, between this probe and the server's bind, by any
 * outgoing connection's own end or any other test's listen on port 0: in one CI run, Unleash (which
 * binds only after its migrations, seconds later) failed with EADDRINUSE. Below the range, only a server
 * told that very port can take it; a start that still finds it taken is retried on another one
 * (`startPostgres`, and `startOnFreePort` in @payspec/third-party).
 */
export async function freePort(): Promise<number> {
  const end = ephemeralPortsStart();
  if (end - PORTS_FROM > 1000)
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = PORTS_FROM + Math.floor(Math.random() * (end - PORTS_FROM));
      if (await bindable(port)) return port;
    }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => child.once("exit", () => resolve()));
}

/** Polls until the server accepts a connection, at most `ms`; fails with the server's own log. */
async function waitReady(url: string, child: ChildProcess, log: () => string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited at start:\n${log()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, Math.min(50 * (attempt + 1), 250)));
    }
  }
  throw new Error(`PostgreSQL did not accept connections within ${ms} ms:\n${log()}`);
}

/** A new, empty database on the server at `serverUrl` (its maintenance database's URL); the new database's URL. */
export async function createDatabase(
  serverUrl: string,
  name = `payspec_${randomBytes(6).toString("hex")}`,
): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Database names here are lower-case identifiers: ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts a real PostgreSQL server for a test run: a fresh cluster in a temporary directory, listening on
 * a free port on 127.0.0.1 only, with trust authentication for the `payspec` user (nothing else can
 * reach it). Stop it when done; a process that exits without stopping it kills it on the way out.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = serverUser();
  const dataDir = mkdtempSync(join(tmpdir(), "payspec-pg-"));
  if (user) chownSync(dataDir, user.uid, user.gid);
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  execFileSync(
    join(bin, "initdb"),
    ["-D", dataDir, "-U", "payspec", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    { ...asUser, stdio: "pipe" },
  );
  const fast = options.fast ?? true;
  /** One life of the server on `port`: its process, its log, and the exit hook that kills it with us. */
  const serve = (port: number) => {
    const args = ["-D", dataDir, "-p", String(port), "-k", dataDir, "-c", "listen_addresses=127.0.0.1"];
    args.push("-c", "max_connections=300");
    if (fast) args.push("-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off");
    const child = spawn(join(bin, "postgres"), args, { ...asUser, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const kill = () => child.kill("SIGQUIT");
    process.once("exit", kill);
    const ended = async () => {
      process.removeListener("exit", kill);
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exitOf(child);
      clearTimeout(timer);
    };
    return { child, log: () => log, ended };
  };
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let life = serve(port);
    const url = `postgres://payspec@127.0.0.1:${port}/postgres`;
    try {
      await waitReady(url, life.child, life.log, 30_000);
    } catch (error) {
      life.child.kill("SIGKILL");
      await life.ended();
      // Another process may have taken the port between our probe and the server's bind.
      if (attempt < 3 && life.log().includes("could not bind")) continue;
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
    let away = false;
    return {
      url,
      port,
      createDatabase: (name?: string) => createDatabase(url, name),
      async stop() {
        if (!away) await life.ended();
        rmSync(dataDir, { recursive: true, force: true });
      },
      async goAway() {
        if (away) return;
        away = true;
        await life.ended();
      },
      async comeBack() {
        if (!away) return;
        life = serve(port);
        away = false;
        await waitReady(url, life.child, life.log, 30_000);
      },
    };
  }
}
