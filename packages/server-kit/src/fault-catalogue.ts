/**
 * The faults a test can ask the sandbox (per workspace) or the mock (per request, `Prefer: fault=…`)
 * for, and what each does. "Before" faults strike before the request is handled (nothing is stored);
 * "after" faults strike once the handler has committed its work, on the way out (the payment exists,
 * the client may never hear of it). The mock stores nothing either way.
 */
export const FAULTS = {
  "latency-before": {
    when: "before",
    clientSees: "the answer, late (latencyMs, fixed or a [min, max] range)",
    serverDid: "waited, then handled the request as usual",
  },
  "latency-after": {
    when: "after",
    clientSees: "the answer, late: a client timeout shorter than the delay sees none",
    serverDid: "handled and committed the request, then waited before answering",
  },
  "error-500": {
    when: "before",
    clientSees: "500 in the API's error shape",
    serverDid: "nothing: the request was not handled",
  },
  "error-503": {
    when: "before",
    clientSees: "503 in the API's error shape, with Retry-After (retryAfterSeconds, default 1)",
    serverDid: "nothing: the request was not handled",
  },
  "rate-limit": {
    when: "before",
    clientSees: "429 in the API's error shape, with Retry-After (retryAfterSeconds, default 1)",
    serverDid: "nothing: the request was not handled",
  },
  "reset-before": {
    when: "before",
    clientSees: "the connection reset (ECONNRESET), no answer",
    serverDid: "nothing: the request was not handled",
  },
  "reset-after-commit": {
    when: "after",
    clientSees: "the connection reset (ECONNRESET), no answer",
    serverDid: "handled and committed the request: a create stored its payment",
  },
  stall: {
    when: "after",
    clientSees: "the status line, the headers and part of the body, then nothing until the client gives up",
    serverDid: "handled and committed the request",
  },
  "truncated-body": {
    when: "after",
    clientSees: "the full Content-Length promised, half the body sent, then the connection closed",
    serverDid: "handled and committed the request",
  },
  "wrong-content-type": {
    when: "after",
    clientSees: "the right body labelled Content-Type: text/html",
    serverDid: "handled and committed the request",
  },
  "batch-partial": {
    when: "after",
    clientSees: "a batch answer that stops after `results` results (default 1), then the connection closed",
    serverDid: "handled and committed the whole batch",
  },
} as const;

/** Bounds on a fault's parameters, the same wherever a fault is asked for. */
export const FAULT_LIMITS = {
  /** A latency fault waits at most this long: a minute outlasts any client timeout worth testing. */
  latencyMs: 60_000,
  retryAfterSeconds: 3_600,
  /** A batch holds at most 500 payments, so at most 500 results can be sent before the cut. */
  batchResults: 500,
} as const;

/** What a fault does when its parameters are not given. */
export const FAULT_DEFAULTS = { latencyMs: 1_000, retryAfterSeconds: 1, batchResults: 1 } as const;

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: unknown): name is FaultName {
  return typeof name === "string" && Object.hasOwn(FAULTS, name);
}
