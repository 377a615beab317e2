import type { OpenStores } from "../infrastructure/features/store-backend.js";
import type { ApiKeyStore } from "./api-key-store.js";
import { MemoryApiKeyStore } from "./memory-api-key-store.js";
import { PostgresApiKeyStore } from "./postgres-api-key-store.js";

export interface ApiKeyStores {
  readonly apiKeys: ApiKeyStore;
}

export const openApiKeyStores: OpenStores<ApiKeyStores> = (backend) => ({
  apiKeys: backend.kind === "memory" ? new MemoryApiKeyStore() : new PostgresApiKeyStore(backend.pool),
});
