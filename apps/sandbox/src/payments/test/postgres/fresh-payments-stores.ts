import pg from "pg";
import { freshDatabase } from "../../../../test/support/test-stores.js";
import { postgresStores, type SandboxStores } from "../../../index.js";
import type { SandboxSecret } from "../../../infrastructure/secret/sandbox-secret.js";
import type { NewPayment, WorkspaceSeed } from "../../store/payments-store.js";

/** The stores on a database of their own, `seed` reset in, and a pool of one for the test's own SQL. */
export interface FreshPaymentsStores {
  readonly stores: SandboxStores;
  readonly db: pg.Pool;
  close(): Promise<void>;
}

export async function freshPaymentsStores(seed: WorkspaceSeed, secret: SandboxSecret): Promise<FreshPaymentsStores> {
  const url = await freshDatabase();
  const stores = await postgresStores(url, { storedWorkspaceId: (key) => secret.storedWorkspaceId(key) });
  await stores.payments.reset([seed]);
  const db = new pg.Pool({ connectionString: url, max: 1 });
  return {
    stores,
    db,
    close: async () => {
      await db.end();
      await stores.close();
    },
  };
}

/** An API create of `amount` between the seed's first two TRY accounts, its countdown from `countdownFrom`. */
export function pendingDraft(seed: WorkspaceSeed, id: string, countdownFrom: number, amount = 1): NewPayment {
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  return {
    id,
    amount,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    createdAt: Date.now(),
    countdownFrom,
    status: "pending",
    cause: "api",
  };
}
