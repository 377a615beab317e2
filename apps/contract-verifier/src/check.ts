import type { VerifyContext } from "./context.js";
import type { RecordedExchange, SentRequest } from "./exchange.js";
import type { ApiName, Profile } from "./options.js";

/** One disagreement between the provider and the spec, with everything needed to reproduce it. */
export interface Violation {
  readonly check: string;
  readonly operation: string;
  readonly request?: SentRequest;
  readonly expected: string;
  readonly actual: string;
  /** A `curl` line that sends the request again (credentials as $VARIABLES). */
  readonly reproduce?: string;
  /** The flags that re-run just this check with the same generated data: `--seed 7 --only <check>`. */
  readonly rerun?: string;
}

export type CheckStatus = "passed" | "failed" | "skipped" | "error";

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly api: ApiName;
  readonly profile: Profile;
  readonly status: CheckStatus;
  readonly violations: readonly Violation[];
  /** Why the check was skipped or could not run. */
  readonly note?: string;
  /** Findings about the spec rather than the provider (a 401 the spec does not declare): never a failure. */
  readonly warnings?: readonly string[];
  readonly requests: number;
  /** Total time of the check and the median response time of its requests. */
  readonly durationMs: number;
  readonly medianResponseMs: number;
}

/** What a check gets: the context, and ways to record what it saw. */
export interface CheckRun {
  readonly ctx: VerifyContext;
  /** Sends a request to the check's API (or the one named) and records it. */
  send(request: Parameters<VerifyContext["send"]>[1], api?: ApiName): Promise<RecordedExchange>;
  /**
   * Records a violation unless `ok`. Returns `ok`. `actual` may be a field read from the provider's
   * answer as it came: a field the provider left out is shown as absent, never a crash of the run.
   */
  expect(
    ok: boolean,
    violation: Omit<Violation, "check" | "request" | "operation" | "actual"> & {
      actual: unknown;
      operation?: string;
      exchange?: RecordedExchange;
    },
  ): boolean;
  /** Notes a finding about the spec, not the provider: reported, never failing the check. */
  warn(message: string): void;
  /** Ends the check as skipped, with the reason: it does not apply to this provider. */
  skip(reason: string): never;
  /**
   * Ends the check as an error: the provider failed the setup the scenario needs (no accounts, a
   * payment that was not created). A broken provider must not pass by skipping.
   */
  cannotStart(reason: string): never;
}

export interface Check {
  /** Stable, dotted name: `negative.createCardPayment`, `state.cancel-twice`. */
  readonly id: string;
  readonly title: string;
  readonly api: ApiName;
  /** The lowest profile that runs it: schema < behaviour < sandbox. */
  readonly profile: Profile;
  /** The operation it is mostly about, for reports. */
  readonly operation: string;
  /** The operationId of a per-operation check, for --include-operations and --exclude-operations. */
  readonly operationId?: string;
  /**
   * Runs after every other check of the run: it judges what they all did (the day's report must hold
   * every card payment the run made, whichever check made it and whenever).
   */
  readonly runsLast?: true;
  run(run: CheckRun): Promise<void>;
}

export { SetupFailed, SkipCheck } from "./check-outcomes.js";
