import type { OpenStores } from "../../infrastructure/features/store-backend.js";
import { keyedByStoredIds, MemoryWorkspaceSetting, type WorkspaceSetting } from "../../workspaces/index.js";
import { MemoryPaymentsStore } from "./memory/memory-payments-store.js";
import type { PaymentsStore, WorkspaceSeed } from "./payments-store.js";
import { PostgresPaymentsStore } from "./postgres/postgres-payments-store.js";

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
  if (backend.kind === "postgres")
    return { payments: keyedPayments(new PostgresPaymentsStore(backend.pool), backend.storedWorkspaceId) };
  if (!(autoSettlement instanceof MemoryWorkspaceSetting)) {
    throw new Error("In-memory payments read the settlement switch at once: open it in memory too.");
  }
  return { payments: new MemoryPaymentsStore(autoSettlement, { maxPayments: backend.maxPayments }) };
};

/** Workspaces kept under their stored ids; a seed carries its workspace, and what was created is named back by key. */
function keyedPayments(inner: PaymentsStore, stored: (apiKey: string) => string): PaymentsStore {
  const seeded = (seed: WorkspaceSeed): WorkspaceSeed => ({ ...seed, workspace: stored(seed.workspace) });
  return keyedByStoredIds(inner, stored, {
    reset: (seeds) => inner.reset(seeds.map(seeded)),
    resetWorkspace: (seed) => inner.resetWorkspace(seeded(seed)),
    async ensureWorkspaces(seeds) {
      const keyOf = new Map(seeds.map((seed) => [stored(seed.workspace), seed.workspace]));
      const created = await inner.ensureWorkspaces(seeds.map(seeded));
      return created.map((id) => keyOf.get(id) as string);
    },
  });
}
