import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface CpuPinning {
  /** Whether servers and the load generator can be given cores of their own. */
  readonly available: boolean;
  /** The core the load generator runs on. */
  readonly loadCore: number;
  /** The core(s) a pinned server runs on. */
  readonly serverCore: number;
  /** Why pinning is off, when it is. */
  readonly reason?: string;
}

let cached: CpuPinning | undefined;

/**
 * Core 0 for the load generator, core 1 for the server under test: on a 2-core machine each gets a
 * core of its own, which is how load reaches a server in production (from another machine).
 */
export function cpuPinning(): CpuPinning {
  if (cached) return cached;
  const cores = availableParallelism();
  const taskset = spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;
  cached =
    cores < 2
      ? { available: false, loadCore: 0, serverCore: 0, reason: "one core: load and server share it" }
      : !taskset
        ? { available: false, loadCore: 0, serverCore: 0, reason: "taskset is missing (util-linux)" }
        : { available: true, loadCore: 0, serverCore: 1 };
  return cached;
}

/** The cores whose quiet a run depends on: wrk's and the servers', or every core where nothing is pinned. */
export function judgedCores(): number[] | undefined {
  const pinning = cpuPinning();
  return pinning.available ? [pinning.loadCore, pinning.serverCore] : undefined;
}
