import { BoundedMap } from "../caching/bounded-map.js";

// The names of the sandbox's clock scopes: every request is in one (the control API's context tells
// which), and the clock feature (src/clock/) keeps an offset per scope.

/** The gateway's clock scope; each payments workspace has its own (`workspaceScope`). */
export const GATEWAY_SCOPE = "gateway";

/**
 * Each workspace's scope name, built once: every API request looks its scope up in two or three
 * maps, and one string kept is hashed once, where a string built per request is hashed per lookup.
 */
const scopeNames = new BoundedMap<string, string>(10_000);

const WORKSPACE_PREFIX = "workspace:";

export function workspaceScope(apiKey: string): string {
  let scope = scopeNames.get(apiKey);
  if (scope === undefined) {
    scope = `${WORKSPACE_PREFIX}${apiKey}`;
    scopeNames.set(apiKey, scope);
  }
  return scope;
}

/** A scope with its workspace's API key passed through `keyed` (a keyed hash, in storage); the gateway's as it is. */
export function scopeWithKey(scope: string, keyed: (apiKey: string) => string): string {
  return scope.startsWith(WORKSPACE_PREFIX) ? WORKSPACE_PREFIX + keyed(scope.slice(WORKSPACE_PREFIX.length)) : scope;
}
