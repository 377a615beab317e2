import { type FaultProxy, startFaultProxy } from "./fault-proxy.js";

/** A server under test that can go back to its starting state (the payspec sandbox is one). */
export interface ResettableTarget {
  readonly url: string;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The test runner's lifecycle hooks (vitest's, jest's, node:test's), passed in so this needs none. */
export interface SuiteHooks {
  beforeAll(fn: () => Promise<void>, timeout?: number): void;
  afterAll(fn: () => Promise<void>, timeout?: number): void;
  beforeEach(fn: () => Promise<void>, timeout?: number): void;
}

export interface ProxiedSuite<T> {
  /** The server itself (its `url` bypasses the proxy). */
  readonly target: T;
  /** The fault proxy in front of it: point clients at `proxy.url`, inject faults, read `proxy.seen`. */
  readonly proxy: FaultProxy;
}

/**
 * A server behind a fault proxy for one test suite: started before the suite, back to its start
 * (reset, no faults, nothing seen) before each test, closed after. The returned object's fields are
 * there once the suite has started.
 */
export function proxiedDuringSuite<T extends ResettableTarget>(
  start: () => Promise<T>,
  hooks: SuiteHooks,
): ProxiedSuite<T> {
  let target: T | undefined;
  let proxy: FaultProxy | undefined;
  hooks.beforeAll(async () => {
    target = await start();
    proxy = await startFaultProxy(target.url);
  });
  hooks.afterAll(async () => {
    await proxy?.close();
    await target?.close();
  });
  hooks.beforeEach(async () => {
    await target?.reset();
    proxy?.clear();
  });
  const started = <V>(value: V | undefined): V => {
    if (value === undefined) throw new Error("The proxied suite has not started: use it inside tests and hooks.");
    return value;
  };
  return {
    get target() {
      return started(target);
    },
    get proxy() {
      return started(proxy);
    },
  };
}
