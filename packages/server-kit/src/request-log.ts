import { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import { maskCardNumbers } from "./card-number-masking.js";

/**
 * Fastify's own logger (pino: one JSON object a line, with `reqId`) writing each line to `write`,
 * and only what `registerRequestLog` logs: Fastify's built-in request lines would log the URL as
 * sent (a query string, a card number in a path).
 */
export function requestLogger(write: (line: string) => void): Pick<FastifyServerOptions, "logger" | "logController"> {
  return {
    logger: {
      level: "info",
      // ISO 8601 rather than epoch milliseconds: read by people too, and no 13-digit run in every line.
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      stream: { write: (line: string) => write(line.trimEnd()) },
    },
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/**
 * One JSON line per answer through the request's own logger (so it carries the `reqId` that the
 * answer's `x-request-id` shows): method, path, status, milliseconds. Only the path is logged, never
 * a query string, header or body, and digit runs that could be a card number are masked, so no card
 * number, CVC or key can reach a log.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: maskCardNumbers(request.url.split("?")[0] ?? ""),
        status: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request completed",
    );
  });
}
