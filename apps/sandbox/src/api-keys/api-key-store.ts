/**
 * An API key made in the dashboard or through the control API (the keys in PAYSPEC_API_KEYS are not
 * stored). Only a keyed hash of the key is kept: the key itself is shown once, at creation.
 */
export interface StoredApiKey {
  readonly id: string;
  /** The workspace it opens, by its tag (`workspaceTag`): never the workspace's own key. */
  readonly workspaceTag: string;
  readonly name: string;
  /** HMAC of the key with the sandbox secret. */
  readonly hash: string;
  /** Its prefix and last four characters, for people to tell keys apart. */
  readonly masked: string;
  readonly createdAt: number;
  /** yyyy-MM-dd: valid through the end of that Istanbul date (`expiresAt`). */
  readonly expiresOn?: string;
  readonly expiresAt?: number;
  readonly revokedAt?: number;
  readonly lastUsedAt?: number;
}

export interface ApiKeyStore {
  /** Stores the key unless the workspace already has `maxLive` keys not revoked; whether it did. */
  create(key: StoredApiKey, maxLive: number): Promise<boolean>;
  byHash(hash: string): Promise<StoredApiKey | undefined>;
  /** A workspace's keys, oldest first. */
  list(workspaceTag: string): Promise<readonly StoredApiKey[]>;
  /** Marks the key revoked (the first revocation's time stays); undefined when the workspace has no such key. */
  revoke(workspaceTag: string, id: string, at: number): Promise<StoredApiKey | undefined>;
  markUsed(id: string, at: number): Promise<void>;
  /** One workspace's keys gone (its reset), or every key (a sandbox reset). */
  deleteFor(workspaceTag?: string): Promise<void>;
}
