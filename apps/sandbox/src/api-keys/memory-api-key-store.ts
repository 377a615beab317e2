import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";

/** Created API keys of one process (their keyed hashes: the keys themselves are never kept). */
export class MemoryApiKeyStore implements ApiKeyStore {
  readonly #keys = new Map<string, StoredApiKey>();
  /** hash → id: every request with a created key looks it up. */
  readonly #idByHash = new Map<string, string>();

  async create(key: StoredApiKey, maxLive: number) {
    const live = [...this.#keys.values()].filter((k) => k.workspaceTag === key.workspaceTag && !k.revokedAt);
    if (live.length >= maxLive) return false;
    this.#keys.set(key.id, key);
    this.#idByHash.set(key.hash, key.id);
    return true;
  }

  async byHash(hash: string) {
    const id = this.#idByHash.get(hash);
    return id === undefined ? undefined : this.#keys.get(id);
  }

  async list(workspaceTag: string) {
    return [...this.#keys.values()].filter((k) => k.workspaceTag === workspaceTag);
  }

  async revoke(workspaceTag: string, id: string, at: number) {
    const key = this.#keys.get(id);
    if (!key || key.workspaceTag !== workspaceTag) return undefined;
    const revoked = { ...key, revokedAt: key.revokedAt ?? at };
    this.#keys.set(id, revoked);
    return revoked;
  }

  async markUsed(id: string, at: number) {
    const key = this.#keys.get(id);
    if (key) this.#keys.set(id, { ...key, lastUsedAt: Math.max(key.lastUsedAt ?? 0, at) });
  }

  async deleteFor(workspaceTag?: string) {
    for (const [id, key] of this.#keys) {
      if (workspaceTag !== undefined && key.workspaceTag !== workspaceTag) continue;
      this.#keys.delete(id);
      this.#idByHash.delete(key.hash);
    }
  }
}
