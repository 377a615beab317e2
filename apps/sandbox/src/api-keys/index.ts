/**
 * API keys: the keys configured at start (PAYSPEC_API_KEYS) and those made in the dashboard or the
 * control API (only a keyed hash kept; shown once; expiry and revocation), authentication of both,
 * their store, control routes and the Settings → API keys page.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { registerApiKeyControls } from "./api-key-controls.js";
import type { ApiKeys } from "./api-keys.js";
import { apiKeysPages } from "./api-keys-pages.js";

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
