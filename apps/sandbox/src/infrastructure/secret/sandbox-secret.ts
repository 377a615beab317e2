import { createHmac, randomBytes } from "node:crypto";
import { BoundedMap } from "../caching/bounded-map.js";

/** What a keyed digest is for: one secret serves several purposes without one standing in for another. */
export type DigestPurpose =
  | "cursor"
  | "card-number"
  | "card-request"
  | "api-key"
  | "dashboard-sign-in"
  | "dashboard-flash"
  | "export-link"
  | "actor";

/** Workspaces are the configured keys, a handful; the bound only keeps a mistake from growing memory. */
const MAX_REMEMBERED_WORKSPACE_IDS = 10_000;

/**
 * The sandbox's secret: cursors are signed with it and card numbers are kept only as keyed hashes
 * of it. Random per process unless configured (PAYSPEC_SANDBOX_SECRET), which instances sharing
 * state must do so that they accept each other's cursors and recognise each other's retries.
 */
export class SandboxSecret {
  readonly #key: Buffer;
  readonly #workspaceIds = new BoundedMap<string, string>(MAX_REMEMBERED_WORKSPACE_IDS);

  constructor(secret?: string) {
    this.#key = secret ? Buffer.from(secret, "utf8") : randomBytes(32);
  }

  /** How a workspace's API key is kept in a database: a keyed hash that only this secret reproduces. */
  storedWorkspaceId(apiKey: string): string {
    // Every store call on PostgreSQL names its workspace this way: an HMAC each time was 3% of a create.
    let id = this.#workspaceIds.get(apiKey);
    if (id === undefined) {
      id = `key_${this.digest("api-key", apiKey).toString("hex")}`;
      this.#workspaceIds.set(apiKey, id);
    }
    return id;
  }

  digest(purpose: DigestPurpose, data: string | Buffer): Buffer {
    return createHmac("sha256", this.#key).update(`${purpose}\0`).update(data).digest();
  }
}
