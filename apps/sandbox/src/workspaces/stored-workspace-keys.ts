/**
 * A feature's store as the sandbox sees it (workspaces named by their API keys) over one that keeps
 * only keyed hashes of the keys, so a dump of the database holds no key that works. Every method's
 * first argument, when a string, names the workspace and goes through `stored`; the methods in `own`
 * are the decorator's own, for arguments of another shape (a seed that carries its workspace).
 * One decorator for every store, so a method added to a store contract is keyed without a new line.
 */
export function keyedByStoredIds<Store extends object>(
  inner: Store,
  stored: (workspace: string) => string,
  own: Partial<Store> = {},
): Store {
  // One wrapper per method, made at its first use: every store call of every request goes through here.
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(inner, {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof Store];
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        // Called on the store itself, never on the proxy: its private fields are the store's.
        wrapper = (first: unknown, ...rest: unknown[]) =>
          value.call(target, typeof first === "string" ? stored(first) : first, ...rest);
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
