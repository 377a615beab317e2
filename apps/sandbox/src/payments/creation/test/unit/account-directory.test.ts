import { describe, expect, it } from "vitest";
import { seedWorkspace } from "../../../../index.js";
import { MemoryPaymentsStore } from "../../../store/memory/memory-payments-store.js";
import { AccountDirectory } from "../../account-directory.js";

/** The in-memory store, counting how often it is asked for a workspace's accounts. */
class CountingStore extends MemoryPaymentsStore {
  reads = 0;
  override async accounts(workspace: string) {
    this.reads++;
    return super.accounts(workspace);
  }
}

const seed = seedWorkspace("sk_directory");

describe("the account directory", () => {
  it("reads a workspace's accounts once, however many creates ask and however they overlap", async () => {
    const store = new CountingStore();
    await store.reset([seed]);
    const directory = new AccountDirectory(store);
    const first = await Promise.all([directory.of(seed.workspace), directory.of(seed.workspace)]);
    await directory.of(seed.workspace);
    expect(store.reads).toBe(1);
    expect(first[0]).toEqual(seed.accounts.map(({ id, currency }) => ({ id, currency })));
    expect(first[1]).toBe(first[0]);
  });

  it("hands over a read that has come back without a wait, and nothing before it has", async () => {
    const store = new CountingStore();
    await store.reset([seed]);
    const directory = new AccountDirectory(store);
    expect(directory.known(seed.workspace)).toBeUndefined();
    const reading = directory.of(seed.workspace);
    expect(directory.known(seed.workspace)).toBeUndefined();
    const read = await reading;
    expect(directory.known(seed.workspace)).toBe(read);
    expect(store.reads).toBe(1);
  });

  it("keeps no balance, which changes", async () => {
    const store = new CountingStore();
    await store.reset([seed]);
    const [account] = await new AccountDirectory(store).of(seed.workspace);
    expect(account).not.toHaveProperty("balanceMinor");
  });

  it("does not remember a failed read: the next create asks again", async () => {
    const store = new CountingStore();
    await store.reset([]);
    const directory = new AccountDirectory(store);
    await expect(directory.of(seed.workspace)).rejects.toThrow(/Unknown workspace/);
    expect(directory.known(seed.workspace)).toBeUndefined();
    await store.ensureWorkspaces([seed]);
    expect(await directory.of(seed.workspace)).toHaveLength(seed.accounts.length);
    expect(store.reads).toBe(2);
  });
});
