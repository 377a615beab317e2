import type { FastifyInstance } from "fastify";
import { maskCardNumbers } from "./card-number-masking.js";

/**
 * One line per request: method, path, status, ms. Only the path is logged, never a query string,
 * header or body, and digit runs that could be a card number are masked, so no card number, CVC
 * or key can reach a log.
 */
export function registerRequestLog(app: FastifyInstance, write: (line: string) => void): void {
  app.addHook("onResponse", async (request, reply) => {
    const path = maskCardNumbers(request.url.split("?")[0] ?? "");
    write(`${request.method} ${path} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
  });
}
