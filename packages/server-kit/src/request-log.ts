import type { FastifyInstance } from "fastify";

/** Anything in a path that could be a card number (13 to 19 digits) is masked before logging. */
export function maskDigitRuns(path: string): string {
  return path.replace(
    /\d{13,19}/g,
    (digits) => `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`,
  );
}

/**
 * One line per request: method, path, status, ms. Only the path is logged, never a query string,
 * header or body, and digit runs that could be a card number are masked, so no card number, CVC
 * or key can reach a log.
 */
export function registerRequestLog(app: FastifyInstance, write: (line: string) => void): void {
  app.addHook("onResponse", async (request, reply) => {
    const path = maskDigitRuns(request.url.split("?")[0] ?? "");
    write(`${request.method} ${path} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
  });
}
