import { ApiFailure } from "@payspec/server-kit";

/** How long a caller is asked to wait while the database is away: about what a restart takes. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * The connection dropped while COMMIT was on its way: the transaction may or may not have been
 * stored, and the caller must look before sending it again (JDBC's "commit outcome unknown").
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super("the database went away while a transaction was being committed", { cause });
  }
}

/** Socket-level failures of node-postgres and Node's net: the server cannot be reached at all. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * PostgreSQL's own words for "not now": class 08 (connection exception), the server shutting down or
 * restarting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), too many
 * connections (53300).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

/** node-postgres' messages for a connection that broke or never came, which carry no code. */
const CLIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/;

/** Failures before a statement could reach the server: whatever was asked was not done. */
const NEVER_REACHED_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P03",
  "53300",
]);

/**
 * Whether the database was away before the statement reached it (no connection could be made), so
 * that nothing it asked for happened; a connection that broke mid-statement leaves that unknown.
 */
export function neverReachedDatabase(error: unknown): boolean {
  const seen = error as { code?: unknown; message?: unknown; errors?: unknown[] } | undefined;
  if (!seen || typeof seen !== "object") return false;
  if (typeof seen.code === "string" && NEVER_REACHED_CODES.has(seen.code)) return true;
  if (typeof seen.message === "string" && /timeout exceeded when trying to connect/.test(seen.message)) return true;
  return Array.isArray(seen.errors) && seen.errors.length > 0 && seen.errors.every(neverReachedDatabase);
}

/** Whether `error` says the database is out of reach (now), rather than that the request or the code is wrong. */
export function isDatabaseAway(error: unknown): boolean {
  if (error instanceof CommitOutcomeUnknown) return true;
  const seen = error as { code?: unknown; message?: unknown; errors?: unknown[]; cause?: unknown } | undefined;
  if (!seen || typeof seen !== "object") return false;
  const code = typeof seen.code === "string" ? seen.code : "";
  if (CONNECTION_CODES.has(code) || SERVER_CODES.test(code)) return true;
  if (typeof seen.message === "string" && CLIENT_MESSAGES.test(seen.message)) return true;
  // Node's happy-eyeballs connect fails with an AggregateError of each address's failure.
  return Array.isArray(seen.errors) && seen.errors.some(isDatabaseAway);
}

/**
 * The answer to a request that met the database away: 503 with Retry-After in the API's error shape,
 * never a 500 (the payspec clients retry a 503 that did nothing), and never the database's address
 * or credentials (the driver's messages can hold both).
 */
export function databaseAwayFailure(error: unknown): ApiFailure | undefined {
  if (!isDatabaseAway(error)) return undefined;
  const message =
    error instanceof CommitOutcomeUnknown
      ? "The database went away while this request was being saved: it may or may not have been applied. Look it up before sending it again (a card payment with the same referenceId is never charged twice)."
      : `The service cannot reach its database right now; nothing was done. Send the request again in ${RETRY_AFTER_SECONDS} s.`;
  return new ApiFailure("service_unavailable", message, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}
