import { expect, it } from "vitest";
import { keyedByStoredIds } from "../../index.js";

interface NotesStore {
  note(workspace: string, text: string): Promise<string>;
  reset(scope?: string): Promise<string>;
  seed(seed: { workspace: string }): Promise<string>;
  fastPath?(workspace: string): string;
}

class Notes implements NotesStore {
  readonly #prefix = "kept under";
  async note(workspace: string, text: string) {
    return `${this.#prefix} ${workspace}: ${text}`;
  }
  async reset(scope?: string) {
    return `reset ${scope ?? "everything"}`;
  }
  async seed(seed: { workspace: string }) {
    return `seeded ${seed.workspace}`;
  }
}

const stored = (key: string) => `h(${key})`;

it("hands the store the stored id wherever a method's first argument names the workspace", async () => {
  const store = keyedByStoredIds<NotesStore>(new Notes(), stored);
  // The store's own private fields still work: it is called as itself.
  expect(await store.note("sk_live_key", "İş ğ ş ı")).toBe("kept under h(sk_live_key): İş ğ ş ı");
  expect(await store.reset()).toBe("reset everything");
  expect(await store.reset("sk_live_key")).toBe("reset h(sk_live_key)");
  // A fast path the store does not have stays absent, so callers take the slow one.
  expect(store.fastPath).toBeUndefined();
});

it("lets the caller key the arguments of another shape itself", async () => {
  const inner = new Notes();
  const store = keyedByStoredIds<NotesStore>(inner, stored, {
    seed: (seed) => inner.seed({ workspace: stored(seed.workspace) }),
  });
  expect(await store.seed({ workspace: "sk_live_key" })).toBe("seeded h(sk_live_key)");
});
