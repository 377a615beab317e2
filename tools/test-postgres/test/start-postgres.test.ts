import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type PostgresServer, startPostgres } from "../src/index.js";

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server.stop());

describe("startPostgres", () => {
  it("runs a real PostgreSQL on 127.0.0.1 and hands out empty databases", async () => {
    expect(server.url).toMatch(/^postgres:\/\/payspec@127\.0\.0\.1:\d+\/postgres$/);
    const [a, b] = await Promise.all([server.createDatabase(), server.createDatabase()]);
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT version() AS v, current_database() AS db");
      expect(rows[0].v).toMatch(/^PostgreSQL \d+/);
      expect(a.endsWith(`/${rows[0].db}`)).toBe(true);
      const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("stops and leaves nothing behind", async () => {
    const other = await startPostgres();
    const dir = (await pgDataDir(other.url)) as string;
    expect(existsSync(dir)).toBe(true);
    await other.stop();
    expect(existsSync(dir)).toBe(false);
    const client = new pg.Client({ connectionString: other.url, connectionTimeoutMillis: 1000 });
    await expect(client.connect()).rejects.toThrow();
  });
});

async function pgDataDir(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SHOW data_directory")).rows[0].data_directory;
  } finally {
    await client.end();
  }
}

describe("freePort", () => {
  it("hands out ports the kernel never gives a connection's own end, each free to listen on", async () => {
    // The kernel's range where it tells it (Linux), else Linux's default.
    const range = "/proc/sys/net/ipv4/ip_local_port_range";
    const ephemeralFrom = existsSync(range) ? Number(readFileSync(range, "utf8").trim().split(/\s+/)[0]) : 32768;
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThan(1024);
      expect(port).toBeLessThan(ephemeralFrom);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => resolve());
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
