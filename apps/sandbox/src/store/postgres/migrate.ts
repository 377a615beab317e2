import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type pg from "pg";

/** pg_advisory_lock's two-int key for migrations: any constant every instance shares ("pays", "pec" in ASCII). */
const MIGRATION_LOCK = [0x70617973, 0x706563];

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The versioned SQL files, `NNNN_name.sql`, in order. They sit next to this module in the sources and
 * are copied beside the bundle in dist, so `./migrations` holds them in both.
 */
export function migrations(dir = fileURLToPath(new URL("./migrations/", import.meta.url))): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(`${dir}/${file}`, "utf8"),
    }));
}

/**
 * Brings the database to the newest schema: each migration not yet applied runs in its own
 * transaction and is recorded. Instances that start at once queue on an advisory lock, so each
 * migration runs exactly once; a database migrated by a newer sandbox is refused rather than misread.
 */
export async function migrate(pool: pg.Pool, available: readonly Migration[] = migrations()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1, $2)", MIGRATION_LOCK);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS payspec_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number }>("SELECT version FROM payspec_migrations");
      const applied = new Set(rows.map((r) => r.version));
      const newest = Math.max(0, ...available.map((m) => m.version));
      const unknown = [...applied].filter((v) => v > newest);
      if (unknown.length > 0) {
        throw new Error(
          `This database has schema version ${Math.max(...unknown)}, newer than this sandbox knows (${newest}): upgrade @payspec/sandbox, or point PAYSPEC_DATABASE_URL at another database.`,
        );
      }
      const ran: number[] = [];
      for (const migration of available) {
        if (applied.has(migration.version)) continue;
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query("INSERT INTO payspec_migrations (version, name) VALUES ($1, $2)", [
            migration.version,
            migration.name,
          ]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
        }
        ran.push(migration.version);
      }
      return ran;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, $2)", MIGRATION_LOCK);
    }
  } finally {
    client.release();
  }
}
