import type pg from "pg";
import { inTransaction } from "../infrastructure/postgres/transaction.js";
import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";

interface ApiKeyRow {
  id: string;
  workspace_tag: string;
  name: string;
  key_hmac: string;
  masked: string;
  created_at: string;
  expires_on: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const COLUMNS =
  "id, workspace_tag, name, key_hmac, masked, created_at, expires_on, expires_at, revoked_at, last_used_at";

function toKey(row: ApiKeyRow): StoredApiKey {
  return {
    id: row.id,
    workspaceTag: row.workspace_tag,
    name: row.name,
    hash: row.key_hmac,
    masked: row.masked,
    createdAt: Number(row.created_at),
    ...(row.expires_on === null ? {} : { expiresOn: row.expires_on, expiresAt: Number(row.expires_at) }),
    ...(row.revoked_at === null ? {} : { revokedAt: Number(row.revoked_at) }),
    ...(row.last_used_at === null ? {} : { lastUsedAt: Number(row.last_used_at) }),
  };
}

/** Created API keys in PostgreSQL: a key made or revoked on one instance is known to all at once. */
export class PostgresApiKeyStore implements ApiKeyStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(key: StoredApiKey, maxLive: number) {
    // Two instances creating at once must not both pass the bound: creates of a workspace take turns.
    const { rowCount } = await inTransaction(this.#pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`api_keys:${key.workspaceTag}`]);
      return client.query(
        `INSERT INTO api_keys (${COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL
       WHERE (SELECT count(*) FROM api_keys WHERE workspace_tag = $2 AND revoked_at IS NULL) < $9`,
        [
          key.id,
          key.workspaceTag,
          key.name,
          key.hash,
          key.masked,
          key.createdAt,
          key.expiresOn ?? null,
          key.expiresAt ?? null,
          maxLive,
        ],
      );
    });
    return rowCount === 1;
  }

  async byHash(hash: string) {
    const { rows } = await this.#pool.query<ApiKeyRow>({
      name: "payspec_api_key_by_hmac",
      text: `SELECT ${COLUMNS} FROM api_keys WHERE key_hmac = $1`,
      values: [hash],
    });
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async list(workspaceTag: string) {
    const { rows } = await this.#pool.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE workspace_tag = $1 ORDER BY created_at, id`,
      [workspaceTag],
    );
    return rows.map(toKey);
  }

  async revoke(workspaceTag: string, id: string, at: number) {
    const { rows } = await this.#pool.query<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3) WHERE workspace_tag = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      [workspaceTag, id, at],
    );
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async markUsed(id: string, at: number) {
    await this.#pool.query("UPDATE api_keys SET last_used_at = greatest(coalesce(last_used_at, 0), $2) WHERE id = $1", [
      id,
      at,
    ]);
  }

  async deleteFor(workspaceTag?: string) {
    if (workspaceTag === undefined) await this.#pool.query("DELETE FROM api_keys");
    else await this.#pool.query("DELETE FROM api_keys WHERE workspace_tag = $1", [workspaceTag]);
  }
}
