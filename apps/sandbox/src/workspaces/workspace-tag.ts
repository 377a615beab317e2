import { createHash } from "node:crypto";

/**
 * A workspace's public name: a short hash of its API key, stable per key (account ids, links in
 * e-mail and what other stores key by are built on it), so that the key itself is never shown.
 */
export function workspaceTag(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 8);
}
