/**
 * Kubernetes waits 30 s after SIGTERM before SIGKILL: in-flight requests, the background loops'
 * current chunk and the pool's release fit well within it, and an instance that cannot finish says
 * so before it is killed.
 */
export const SHUTDOWN_BOUND_MS = 25_000;

/**
 * Stops the instance on SIGTERM or SIGINT: no new connections, requests in flight answered, the
 * background loops' current run finished and their leases released, the pool closed, exit 0. Past
 * `boundMs`, or on a second signal, it exits 1 at once and says why (a lease it held is taken over
 * by another instance when it expires).
 */
export function stopOnSignals(
  close: () => Promise<void>,
  { boundMs = SHUTDOWN_BOUND_MS, say = (line: string) => process.stderr.write(`${line}\n`) } = {},
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`payspec-sandbox: ${signal} again: exiting without waiting for requests in flight.`);
      process.exit(1);
    }
    stopping = true;
    const timer = setTimeout(() => {
      say(
        `payspec-sandbox: requests or background work still running ${boundMs / 1000} s after ${signal}: exiting anyway. Work under a lease is taken over by another instance once the lease expires.`,
      );
      process.exit(1);
    }, boundMs);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        say(`payspec-sandbox: stopping failed (${(error as Error).message}); exiting.`);
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
}
