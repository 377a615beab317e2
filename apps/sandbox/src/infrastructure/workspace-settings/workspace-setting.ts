import type pg from "pg";
import type { StoreBackend } from "../features/store-backend.js";
import type { StoredWorkspaceId } from "../postgres/stored-workspace-id.js";

/**
 * One setting of every workspace (the approval workflow, automatic settlement, the report
 * recipients): its default until set, back to the default when the workspace is reset.
 */
export interface WorkspaceSetting<T> {
  get(workspace: string): Promise<T>;
  set(workspace: string, value: T): Promise<void>;
  /** Back to the default: one workspace, or (no argument) every one. */
  clear(workspace?: string): Promise<void>;
}

/** Where a setting lives in PostgreSQL, and its value in a fresh workspace. */
export interface SettingColumn<T> {
  /** A column of `workspaces` (the row every write of the workspace locks), named by a migration. */
  readonly column: string;
  readonly fallback: T;
}

export class MemoryWorkspaceSetting<T> implements WorkspaceSetting<T> {
  readonly #values = new Map<string, T>();
  readonly #fallback: T;

  constructor({ fallback }: SettingColumn<T>) {
    this.#fallback = fallback;
  }

  async get(workspace: string): Promise<T> {
    return this.peek(workspace);
  }

  /** The value at once: for a store in this process that must not wait (the payments ledger's settlement). */
  peek(workspace: string): T {
    return this.#values.has(workspace) ? (this.#values.get(workspace) as T) : this.#fallback;
  }

  async set(workspace: string, value: T): Promise<void> {
    this.#values.set(workspace, value);
  }

  async clear(workspace?: string): Promise<void> {
    if (workspace === undefined) this.#values.clear();
    else this.#values.delete(workspace);
  }
}

/**
 * A setting kept in its column of the workspace's row. Values go in as JSON (a boolean or a list is
 * what settings hold), so the column may be boolean or jsonb alike.
 */
export class PostgresWorkspaceSetting<T> implements WorkspaceSetting<T> {
  readonly #pool: pg.Pool;
  readonly #column: string;
  readonly #fallback: T;
  readonly #id: StoredWorkspaceId;

  constructor(pool: pg.Pool, { column, fallback }: SettingColumn<T>, storedWorkspaceId: StoredWorkspaceId) {
    if (!/^[a-z_]+$/.test(column)) throw new Error(`Not a column name: ${column}`);
    this.#pool = pool;
    this.#column = column;
    this.#fallback = fallback;
    this.#id = storedWorkspaceId;
  }

  async get(workspace: string): Promise<T> {
    const { rows } = await this.#pool.query<Record<string, T>>(
      `SELECT ${this.#column} AS value FROM workspaces WHERE workspace = $1`,
      [this.#id(workspace)],
    );
    return rows[0] ? (rows[0].value as T) : this.#fallback;
  }

  async set(workspace: string, value: T): Promise<void> {
    await this.#pool.query(`UPDATE workspaces SET ${this.#column} = $2 WHERE workspace = $1`, [
      this.#id(workspace),
      JSON.stringify(value),
    ]);
  }

  async clear(workspace?: string): Promise<void> {
    if (workspace === undefined) await this.#pool.query(`UPDATE workspaces SET ${this.#column} = DEFAULT`);
    else {
      await this.#pool.query(`UPDATE workspaces SET ${this.#column} = DEFAULT WHERE workspace = $1`, [
        this.#id(workspace),
      ]);
    }
  }
}

/** The setting on the sandbox's backend: a feature's settings open with its stores. */
export function openWorkspaceSetting<T>(backend: StoreBackend, column: SettingColumn<T>): WorkspaceSetting<T> {
  return backend.kind === "memory"
    ? new MemoryWorkspaceSetting(column)
    : new PostgresWorkspaceSetting(backend.pool, column, backend.storedWorkspaceId);
}
