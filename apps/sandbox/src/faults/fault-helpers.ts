import { ApiFailure, type FaultName } from "@payspec/server-kit";
import { GATEWAY_SCOPE, workspaceScope } from "../clock/index.js";
import type { DeclaredFaults, FaultView } from "./declared-faults.js";

/** Whose requests a fault strikes: a workspace (by its API key; default, the sandbox's first) or the gateway. */
export interface FaultTarget {
  readonly apiKey?: string;
  readonly gateway?: boolean;
}

/** A fault's settings beyond its name and how often it strikes. */
export interface FaultSettings {
  /** latency-before, latency-after: fixed, or drawn from [min, max] (default 1000). */
  readonly latencyMs?: number | readonly [number, number];
  /** error-503, rate-limit: the Retry-After header (default 1). */
  readonly retryAfterSeconds?: number;
  /** batch-partial: how many results are sent before the answer stops (default 1). */
  readonly results?: number;
}

/**
 * Faults from a test that started the sandbox in its own process (`startSandbox()`), typed:
 * `sandbox.faults.next("createPayment", "reset-after-commit")`. The same as `POST /_sandbox/faults`.
 */
export interface SandboxFaultHelpers {
  /** Strikes the next `times` (default 1) requests to the operation(s), by operationId or "METHOD /path". */
  next(
    operation: string | readonly string[],
    fault: FaultName,
    options?: FaultSettings & FaultTarget & { readonly times?: number },
  ): FaultView;
  /** Strikes each request to the operation(s) with a probability, seeded (default 1), at most `max` (default 100) times. */
  sometimes(
    operation: string | readonly string[],
    fault: FaultName,
    options: FaultSettings &
      FaultTarget & { readonly probability: number; readonly seed?: number; readonly max?: number },
  ): FaultView;
  list(target?: FaultTarget): FaultView[];
  /** Clears the target's faults; how many there were. */
  clear(target?: FaultTarget): number;
}

export function faultHelpers(faults: DeclaredFaults | undefined, defaultKey: string): SandboxFaultHelpers {
  const scopeOf = (target: FaultTarget = {}) => {
    if (!faults) {
      throw new Error(
        "Faults need the control API: start the sandbox without control: false (PAYSPEC_SANDBOX_CONTROL=off).",
      );
    }
    return {
      faults,
      scope: target.gateway ? GATEWAY_SCOPE : workspaceScope(target.apiKey ?? defaultKey),
      api: target.gateway ? ("gateway" as const) : ("payments" as const),
    };
  };
  const declare = (
    operation: string | readonly string[],
    fault: FaultName,
    body: Record<string, unknown>,
    target: FaultTarget,
  ) => {
    const { faults: declared, scope, api } = scopeOf(target);
    try {
      return declared.declare(scope, { operation, fault, ...body }, api);
    } catch (error) {
      // A test's mistake reads as a plain error, not an HTTP failure object.
      throw error instanceof ApiFailure ? new Error(error.message) : error;
    }
  };
  const settings = ({ latencyMs, retryAfterSeconds, results }: FaultSettings) => ({
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(results === undefined ? {} : { results }),
  });
  return {
    next: (operation, fault, options = {}) =>
      declare(operation, fault, { next: options.times ?? 1, ...settings(options) }, options),
    sometimes: (operation, fault, options) =>
      declare(
        operation,
        fault,
        {
          probability: options.probability,
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.max === undefined ? {} : { max: options.max }),
          ...settings(options),
        },
        options,
      ),
    list: (target) => {
      const { faults: declared, scope } = scopeOf(target);
      return declared.list(scope);
    },
    clear: (target) => {
      const { faults: declared, scope } = scopeOf(target);
      return declared.clear(scope);
    },
  };
}
