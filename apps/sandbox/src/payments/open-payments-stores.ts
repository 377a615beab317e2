import type { OpenStores } from "../infrastructure/features/store-backend.js";
import { MemoryWorkspaceSetting, type WorkspaceSetting } from "../workspaces/index.js";
import { HashedWorkspacesStore } from "./hashed-workspaces-store.js";
import { MemoryPaymentsStore } from "./memory-payments-store.js";
import type { PaymentsStore } from "./payments-store.js";
import { PostgresPaymentsStore } from "./postgres-payments-store.js";

export interface PaymentsStores {
  readonly payments: PaymentsStore;
}

/**
 * The ledger settles at the cut-off only while the workspace's switch is on: the settlement
 * feature's switch comes in. In memory the ledger reads it at once, so it must be the in-memory one.
 */
export const openPaymentsStores: OpenStores<PaymentsStores, { readonly autoSettlement: WorkspaceSetting<boolean> }> = (
  backend,
  { autoSettlement },
) => {
  if (backend.kind === "postgres") {
    return { payments: new HashedWorkspacesStore(new PostgresPaymentsStore(backend.pool), backend.storedWorkspaceId) };
  }
  if (!(autoSettlement instanceof MemoryWorkspaceSetting)) {
    throw new Error("In-memory payments read the settlement switch at once: open it in memory too.");
  }
  return { payments: new MemoryPaymentsStore(autoSettlement, { maxPayments: backend.maxPayments }) };
};
