import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { onOwnConnection } from "./transaction.js";

/** pg_advisory_lock's two-int key for migrations: any constant every instance shares ("pays", "pec" in ASCII). */
const MIGRATION_LOCK = [0x70617973, 0x706563];

/** What a migration may need beyond SQL: how this sandbox keys an API key for storage. */
export interface MigrationContext {
  readonly storedWorkspaceId: (apiKey: string) => string;
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  /**
   * Instances of the releases before it keep working on the database it migrates (it adds tables,
   * nullable or defaulted columns, indexes; it drops, renames and tightens nothing): a rolling upgrade
   * may run them side by side. A SQL file says so on its first line (ADDITIVE_MARKER); every part of
   * a version must.
   */
  readonly olderMayServe?: boolean;
  /** A SQL file's statements, or code for what SQL cannot do (a keyed hash needs the sandbox secret). */
  readonly sql?: string;
  readonly run?: (client: pg.ClientBase, context: MigrationContext) => Promise<void>;
}

/**
 * 0003: workspaces were keyed by their API key in clear; now by a keyed hash of it (HMAC with the
 * sandbox secret), as gateway tokens are. Every row that names a workspace is rewritten, whichever
 * feature's table holds it: the one migration the migrator keeps itself, since it needs code (the
 * secret) and reaches every feature at once.
 */
const hashApiKeys: Migration = {
  version: 3,
  name: "hash_api_keys",
  async run(client, { storedWorkspaceId }) {
    // Children follow their workspace's new key (payments → payment_history through its own key).
    await client.query(`
      ALTER TABLE accounts DROP CONSTRAINT accounts_workspace_fkey,
        ADD CONSTRAINT accounts_workspace_fkey FOREIGN KEY (workspace) REFERENCES workspaces ON DELETE CASCADE ON UPDATE CASCADE;
      ALTER TABLE payments DROP CONSTRAINT payments_workspace_fkey,
        ADD CONSTRAINT payments_workspace_fkey FOREIGN KEY (workspace) REFERENCES workspaces ON DELETE CASCADE ON UPDATE CASCADE;
      ALTER TABLE payment_history DROP CONSTRAINT payment_history_workspace_seq_fkey,
        ADD CONSTRAINT payment_history_workspace_seq_fkey FOREIGN KEY (workspace, seq) REFERENCES payments ON DELETE CASCADE ON UPDATE CASCADE;`);
    const { rows } = await client.query<{ workspace: string }>("SELECT workspace FROM workspaces");
    for (const { workspace: apiKey } of rows) {
      const id = storedWorkspaceId(apiKey);
      await client.query("UPDATE workspaces SET workspace = $2 WHERE workspace = $1", [apiKey, id]);
      await client.query("UPDATE clock_offsets SET scope = $2 WHERE scope = $1", [
        `workspace:${apiKey}`,
        `workspace:${id}`,
      ]);
    }
  },
};

/** The first line of a migration that older instances may serve beside (see Migration.olderMayServe). */
export const ADDITIVE_MARKER = "-- payspec: additive, older instances keep working";

/** Where each feature keeps its migrations: `src/<feature>/migrations/`, or in a build `dist/migrations/<feature>/`. */
export function featureMigrationDirs(): { readonly feature: string; readonly dir: string }[] {
  // A build copies every feature's folder beside the bundle (tsdown.config.ts); the sources have
  // them in the features' own folders, two levels up from here.
  const built = fileURLToPath(new URL("./migrations/", import.meta.url));
  const root = existsSync(built) ? built : fileURLToPath(new URL("../../", import.meta.url));
  const dirOf = (feature: string) => (root === built ? join(root, feature) : join(root, feature, "migrations"));
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(dirOf(entry.name)))
    .map((entry) => ({ feature: entry.name, dir: dirOf(entry.name) }))
    .sort((a, b) => a.feature.localeCompare(b.feature));
}

const CREATED_TABLES = /\bCREATE TABLE(?: IF NOT EXISTS)?\s+([a-z_][a-z0-9_]*)/g;

/**
 * The parts of one version in an order that runs a part creating a table before any part naming it
 * (the workspaces feature's table before payments' foreign keys to it); otherwise alphabetical.
 */
function creatorsFirst<P extends { readonly sql: string }>(parts: readonly P[]): P[] {
  const creates = new Map(parts.map((part) => [part, [...part.sql.matchAll(CREATED_TABLES)].map((m) => m[1])]));
  const names = (part: P, table: string | undefined) =>
    new RegExp(`\\b(?:REFERENCES|FROM|JOIN|INTO|UPDATE|ALTER TABLE|ON)\\s+${table}\\b`).test(part.sql);
  const waiting = [...parts];
  const ordered: P[] = [];
  while (waiting.length > 0) {
    const ready = waiting.findIndex((part) =>
      waiting.every((other) => other === part || !creates.get(other)?.some((table) => names(part, table))),
    );
    // A cycle (each names what the other creates) keeps the alphabetical order and fails as SQL would.
    ordered.push(...waiting.splice(Math.max(ready, 0), 1));
  }
  return ordered;
}

/**
 * Every feature's versioned SQL files, `NNNN_name.sql`, in one global order. Versions are global:
 * features that changed the schema in one release each hold a part of that version, and the parts
 * run as one migration (a part creating a table before those naming it, otherwise in the features'
 * alphabetical order; in one transaction), recorded once, so a database migrated before the files
 * moved into their features upgrades exactly as before.
 */
export function migrations(dirs = featureMigrationDirs()): Migration[] {
  const parts = dirs.flatMap(({ feature, dir }) =>
    readdirSync(dir)
      .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
      .map((file) => ({
        feature,
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql: readFileSync(join(dir, file), "utf8"),
      })),
  );
  const byVersion = new Map<number, typeof parts>();
  for (const part of parts) byVersion.set(part.version, [...(byVersion.get(part.version) ?? []), part]);
  const fromFiles: Migration[] = [...byVersion].map(([version, unordered]) => {
    const of = creatorsFirst(unordered);
    return {
      version,
      name: [...new Set(of.map((part) => part.name))].join(" + "),
      sql: of.map((part) => `-- ${part.feature}\n${part.sql}`).join("\n"),
      olderMayServe: of.every((part) => part.sql.startsWith(ADDITIVE_MARKER)),
    };
  });
  return [...fromFiles, hashApiKeys].sort((a, b) => a.version - b.version);
}

/** Without a secret (the migration tests), keys are "hashed" to themselves. */
const IDENTITY: MigrationContext = { storedWorkspaceId: (apiKey) => apiKey };

/**
 * Brings the database to the newest schema: each migration not yet applied runs in its own
 * transaction and is recorded. Instances that start at once queue on an advisory lock, so each
 * migration runs exactly once; a database migrated by a newer sandbox is refused rather than misread.
 */
export async function migrate(
  pool: pg.Pool,
  available: readonly Migration[] = migrations(),
  context: MigrationContext = IDENTITY,
): Promise<number[]> {
  return onOwnConnection(pool, async (client) => {
    await client.query("SELECT pg_advisory_lock($1, $2)", MIGRATION_LOCK);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS payspec_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      // Which migrations an older release may serve beside: recorded with each, read by every release
      // from this one on (releases before it refuse any newer schema).
      await client.query(
        "ALTER TABLE payspec_migrations ADD COLUMN IF NOT EXISTS older_may_serve boolean NOT NULL DEFAULT false",
      );
      const { rows } = await client.query<{ version: number; older_may_serve: boolean }>(
        "SELECT version, older_may_serve FROM payspec_migrations",
      );
      const applied = new Set(rows.map((r) => r.version));
      const newest = Math.max(0, ...available.map((m) => m.version));
      const unreadable = rows.filter((r) => r.version > newest && !r.older_may_serve).map((r) => r.version);
      if (unreadable.length > 0) {
        throw new Error(
          `This database has schema version ${Math.max(...unreadable)}, newer than this sandbox knows (${newest}) and not one it can serve: upgrade @payspec/sandbox, or point PAYSPEC_DATABASE_URL at another database.`,
        );
      }
      const ran: number[] = [];
      for (const migration of available) {
        if (applied.has(migration.version)) continue;
        await client.query("BEGIN");
        try {
          if (migration.sql) await client.query(migration.sql);
          await migration.run?.(client, context);
          await client.query("INSERT INTO payspec_migrations (version, name, older_may_serve) VALUES ($1, $2, $3)", [
            migration.version,
            migration.name,
            migration.olderMayServe === true,
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
  });
}

/**
 * Why this instance cannot serve the database's schema (not yet migrated to what it needs, or migrated
 * by a newer release it cannot serve beside), or undefined when it can: `/readyz` asks on every probe.
 */
export async function schemaProblem(pool: pg.Pool, newest: number): Promise<string | undefined> {
  const { rows } = await pool.query<{ version: number | null; newer_unreadable: number | null }>(
    `SELECT max(version) AS version,
            max(version) FILTER (WHERE version > $1 AND NOT older_may_serve) AS newer_unreadable
       FROM payspec_migrations`,
    [newest],
  );
  const version = rows[0]?.version ?? 0;
  if (version < newest)
    return `the database's schema is version ${version}, this sandbox needs ${newest}: restart an instance to migrate it`;
  const unreadable = rows[0]?.newer_unreadable;
  return unreadable === null || unreadable === undefined
    ? undefined
    : `the database was migrated to version ${unreadable} by a newer release, which this one cannot serve beside: upgrade this instance`;
}

/** The newest schema version this sandbox knows. */
export function newestVersion(available: readonly Migration[] = migrations()): number {
  return Math.max(0, ...available.map((m) => m.version));
}
