import type { SentRequest } from "./exchange.js";
import type { ApiName } from "./options.js";

/** A request of the run, as the last few before the target fell over are kept. */
export interface RecentRequest {
  readonly check: string;
  readonly api: ApiName;
  readonly request: SentRequest;
  /** The status it got, or why it got none. */
  readonly answered: number | string;
}

/**
 * The target stopped answering mid-run: a request got no answer and a probe of the target got none
 * either. Schemathesis stops there too: every later request would fail "connection refused" and bury
 * the one finding that matters, the request that brought it down.
 */
export class ServerDown extends Error {
  constructor(
    /** Why the probe got no answer (ECONNREFUSED, a timeout). */
    readonly why: string,
    /** The requests sent just before, the last one first. */
    readonly recent: readonly RecentRequest[],
  ) {
    super(`the target stopped answering (${why})`);
  }
}
