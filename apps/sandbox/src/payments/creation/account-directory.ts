import { BoundedMap } from "../../infrastructure/caching/bounded-map.js";
import type { PaymentsStore, StoredAccount } from "../store/payments-store.js";

/** What a create checks of an account: that it exists, and its currency. */
export type AccountIdentity = Pick<StoredAccount, "id" | "currency">;

/** Workspaces remembered at most; past this the directory starts over (one read each brings them back). */
const MAX_WORKSPACES = 10_000;

/**
 * Each workspace's accounts as creates check them: ids and currencies, which never change once the
 * workspace exists (its accounts are its seed's, and a reset puts the same ones back). Read from the
 * store once per workspace, so that on PostgreSQL a create costs one round trip, its insert. Balances
 * do change, and are not kept here.
 */
export class AccountDirectory {
  readonly #store: PaymentsStore;
  readonly #byWorkspace = new BoundedMap<string, Promise<readonly AccountIdentity[]>>(MAX_WORKSPACES);
  /** The reads that have come back, for a create that need not wait a turn of the event loop. */
  readonly #read = new BoundedMap<string, readonly AccountIdentity[]>(MAX_WORKSPACES);

  constructor(store: PaymentsStore) {
    this.#store = store;
  }

  /** The workspace's accounts when they have been read already, else undefined (then call `of`). */
  known(workspace: string): readonly AccountIdentity[] | undefined {
    return this.#read.get(workspace);
  }

  of(workspace: string): Promise<readonly AccountIdentity[]> {
    const known = this.#byWorkspace.get(workspace);
    if (known) return known;
    const read = this.#store.accounts(workspace).then((accounts) => {
      const identities = accounts.map(({ id, currency }) => ({ id, currency }));
      if (this.#byWorkspace.get(workspace) === read) this.#read.set(workspace, identities);
      return identities;
    });
    this.#byWorkspace.set(workspace, read);
    // A failed read is not remembered: the next create asks the store again.
    read.catch(() => {
      if (this.#byWorkspace.get(workspace) === read) this.#byWorkspace.delete(workspace);
    });
    return read;
  }
}
