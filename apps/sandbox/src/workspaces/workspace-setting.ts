import type pg from "pg";
import type { StoreBackend } from "../infrastructure/features/store-backend.js";
import type { StoredWorkspaceId } from "../infrastructure/postgres/stored-workspace-id.js";

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

/** A setting as its feature defines it: its name in `workspace_settings`, and its value until set. */
export interface SettingDefinition<T> {
  /** Lower case and underscores, unique across the features (a migration once named its column after it). */
  readonly name: string;
  readonly fallback: T;
}

export class MemoryWorkspaceSetting<T> implements WorkspaceSetting<T> {
  readonly #values = new Map<string, T>();
  readonly #fallback: T;

  constructor({ fallback }: SettingDefinition<T>) {
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
 * A setting kept as a row of `workspace_settings` (0017), its value as JSON (a boolean, a list, a
 * word). A workspace without the row has the default: clearing deletes the row.
 */
export class PostgresWorkspaceSetting<T> implements WorkspaceSetting<T> {
  readonly #pool: pg.Pool;
  readonly #name: string;
  readonly #fallback: T;
  readonly #id: StoredWorkspaceId;

  constructor(pool: pg.Pool, { name, fallback }: SettingDefinition<T>, storedWorkspaceId: StoredWorkspaceId) {
    this.#pool = pool;
    this.#name = name;
    this.#fallback = fallback;
    this.#id = storedWorkspaceId;
  }

  async get(workspace: string): Promise<T> {
    const { rows } = await this.#pool.query<{ value: T }>(
      "SELECT value FROM workspace_settings WHERE workspace = $1 AND name = $2",
      [this.#id(workspace), this.#name],
    );
    return rows[0] ? rows[0].value : this.#fallback;
  }

  /** Kept for a workspace that exists; for one not seeded (yet), nothing is kept, as before 0017. */
  async set(workspace: string, value: T): Promise<void> {
    await this.#pool.query(
      `INSERT INTO workspace_settings (workspace, name, value)
       SELECT workspace, $2, $3 FROM workspaces WHERE workspace = $1
       ON CONFLICT (workspace, name) DO UPDATE SET value = excluded.value`,
      [this.#id(workspace), this.#name, JSON.stringify(value)],
    );
  }

  async clear(workspace?: string): Promise<void> {
    if (workspace === undefined) await this.#pool.query("DELETE FROM workspace_settings WHERE name = $1", [this.#name]);
    else {
      await this.#pool.query("DELETE FROM workspace_settings WHERE workspace = $1 AND name = $2", [
        this.#id(workspace),
        this.#name,
      ]);
    }
  }
}

/** The setting on the sandbox's backend: a feature's settings open with its stores. */
export function openWorkspaceSetting<T>(backend: StoreBackend, definition: SettingDefinition<T>): WorkspaceSetting<T> {
  return backend.kind === "memory"
    ? new MemoryWorkspaceSetting(definition)
    : new PostgresWorkspaceSetting(backend.pool, definition, backend.storedWorkspaceId);
}
