/**
 * API keys: the keys configured at start (PAYSPEC_API_KEYS) and those made in the dashboard or the
 * control API (only a keyed hash kept; shown once; expiry and revocation), authentication of both,
 * their store, control routes and the Settings → API keys page.
 */
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { registerApiKeyControls } from "./api-key-controls.js";
import { ApiKeys, maskKey } from "./api-keys.js";
import { apiKeysPages } from "./api-keys-pages.js";
import type { ApiKeyStores } from "./open-api-key-stores.js";

export interface SignedKeys {
  readonly apiKeys: ApiKeys;
  /** Who acts with a key, as histories record it: a keyed fingerprint (never the key) and the key masked. */
  readonly signerOf: (key: string) => string;
}

/** The keys that authenticate a workspace, configured or made in the sandbox, and who signs with each. */
export const apiKeysDeclaration: FeatureDeclaration<SignedKeys, ApiKeyStores> = {
  name: "api-keys",
  needs: [clockDeclaration],
  build: ({ config, stores, secret, use }) => {
    const apiKeys = new ApiKeys(stores.apiKeys, secret, use(clockDeclaration), config.apiKeys);
    const signerOf = (key: string) => `${secret.digest("actor", key).toString("hex").slice(0, 16)} ${maskKey(key)}`;
    return { provides: { apiKeys, signerOf }, feature: apiKeysFeature(apiKeys) };
  },
};

export function apiKeysFeature(apiKeys: ApiKeys): SandboxFeature {
  return {
    name: "api-keys",
    controlRoutes: (control, ctx) => registerApiKeyControls(control, apiKeys, ctx),
    dashboardPages: apiKeysPages(apiKeys),
    // Keys made in the workspace go with it: a reset is a new workspace (its configured key stays).
    resetWorkspace: (apiKey) => apiKeys.forget(apiKey),
    reset: () => apiKeys.forget(),
  };
}
export type { ApiKeyStore } from "./api-key-store.js";
export { ApiKeys, maskKey, UNKNOWN_KEY } from "./api-keys.js";
export { type ApiKeyStores, openApiKeyStores } from "./open-api-key-stores.js";
