import { makeConsumerPact } from "@pact-foundation/pact-core";

/**
 * Longest wait for pact's mock server to record a request it has already answered. Bounded: a request
 * that never came is then reported by executeTest as usual.
 */
const RECORD_WAIT_MS = 2_000;
const POLL_MS = 5;

/** Asks pact's mock servers, by port, whether every expected request was matched (one handle per run). */
let probe: ReturnType<typeof makeConsumerPact> | undefined;

/**
 * A consumer test body that returns only once the mock server has recorded the requests it answered.
 * pact's mock server answers first and records the match on another task of its own
 * (pact-foundation/pact-core-mock-server#13, pact-reference#535); executeTest asks for the matches as
 * soon as the body returns, so under CPU load (a full CI run) it can report a request that was
 * answered as "expected but not received".
 */
export function answeredAndRecorded<S extends { readonly port: number }, T>(
  body: (server: S) => Promise<T>,
): (server: S) => Promise<T> {
  return async (server) => {
    const value = await body(server);
    probe ??= makeConsumerPact("payspec-consumer-tests", "pact-mock-server", undefined, "warn");
    const until = Date.now() + RECORD_WAIT_MS;
    while (!probe.mockServerMatchedSuccessfully(server.port) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return value;
  };
}
