import { existsSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresServer, startPostgres } from "../src/index.js";

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
