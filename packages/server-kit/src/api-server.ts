import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { ApiFailure, apiOf } from "./api-failure.js";
import { type FailureOf, fromFastify, registerErrorHandling, send } from "./error-handler.js";
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from "./json-body-parser.js";
import { registerRequestLog, requestLogger } from "./request-log.js";
import { routeMatcher } from "./route-matcher.js";
import { assertStorableText } from "./string-fields.js";

export interface ApiServerOptions {
  /**
   * Every operation served, as `METHOD /path/{template}` (the keys of the generated route tables),
   * so that a wrong method on a known path answers 405 with `Allow`.
   */
  readonly operations: readonly string[];
  /**
   * Refuse a path or query holding text no database can keep (NUL, lone surrogates) before any
   * handler, in the called API's error shape. Checked in the hook every request runs already, not in
   * a phase of its own.
   */
  readonly refuseUnstorableText?: boolean;
  /** Log each answer as a JSON line (Fastify's own logger, with the request's id) to this. Off when unset. */
  readonly requestLog?: (line: string) => void;
  /** Errors of the server's own backing services that have an answer of their own (a 503 while its database is away). */
  readonly failureOf?: FailureOf;
}

/**
 * Request ids: unique per process (a random prefix) and cheap per request (a counter), since
 * every answer carries one.
 */
function requestIds(): () => string {
  const prefix = randomBytes(6).toString("base64url");
  let next = 0;
  return () => `req_${prefix}${(++next).toString(36)}`;
}

/** Longer than any id either API issues, so an over-long id still reaches its handler and gets a 404. */
const MAX_PARAM_LENGTH = 4096;

/**
 * Refusals that happen before Fastify sees a request (headers too large, broken chunked framing),
 * written straight to the socket in the called API's error shape. The request line says which API.
 */
function writeClientError(error: { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) return;
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const message =
    status === 431
      ? "The request headers are too large; send fewer or smaller headers (16 KiB in all at most)."
      : status === 408
        ? "The request did not arrive in time; send it again."
        : "The request is not valid HTTP/1.1 (for example, broken chunked framing); check how it is sent.";
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
  const requestLine = raw.toString("latin1", 0, 4096).split("\r\n", 1)[0] ?? "";
  const path = requestLine.split(" ")[1] ?? "/";
  const failure = new ApiFailure("invalid_request", message, { status });
  const body = JSON.stringify(apiOf(path) === "gateway" ? failure.gatewayBody() : failure.paymentsBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The way out of every answer, errors and 404s included, in one callback hook (an async one would cost
 * every answer a promise): it carries the request's id, and it waits for the check phase of the event
 * loop's turn, so that a turn reads every request that has arrived before it writes any answer.
 * Written at once, each answer woke the client for that one request, its next request came back
 * alone, and every turn of the loop (its poll, timers, microtask queue) served one request; waiting,
 * a busy server's answers leave in bursts and its turns serve many. An idle server's answer waits
 * only for the rest of its own turn. The throughput bench measures what it gives (see tools/benchmarks).
 * Since the answer is not written when the handler's promise settles, a handler that returns the reply
 * (not its answer) has Fastify watch the response stream to its end: see the README.
 */
function registerWayOut(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    setImmediate(done, null, payload);
  });
}

/**
 * Closing waits for every connection to end. Fastify closes the idle ones when it starts; one whose
 * request was still being answered then is kept alive after its answer, and would hold the close
 * until its keep-alive timeout (72 s): each is closed as it falls idle, until the server has closed.
 */
function closeConnectionsAsTheyFallIdle(app: FastifyInstance): void {
  app.addHook("preClose", (done) => {
    if (app.server.listening) {
      const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
      reaper.unref();
      app.server.once("close", () => clearInterval(reaper));
    }
    done();
  });
}

/**
 * A Fastify instance that answers everything, down to Node-level refusals, in the called API's
 * error shape: strict JSON bodies, 405 with `Allow` for a wrong method on a known path, an
 * `x-request-id` on every answer (clients put it in their errors), and no Fastify default bodies.
 */
export function createApiServer({
  operations,
  refuseUnstorableText = false,
  requestLog,
  failureOf,
}: ApiServerOptions): FastifyInstance {
  const app = Fastify({
    ...(requestLog ? requestLogger(requestLog) : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    genReqId: requestIds(),
    frameworkErrors: (error, request, reply) => {
      // Refused before routing, so the way out's onSend hook does not run: the id is set here.
      reply.header("x-request-id", request.id);
      return send(reply, request, fromFastify(error));
    },
    clientErrorHandler: (error, socket) => writeClientError(error as { code?: string; rawPacket?: unknown }, socket),
  });
  // Only where asked for: a server without it runs no onRequest hook at all. A callback hook, not an
  // async one: it runs on every request, and a promise each time shows. The route's parameters and
  // the query are parsed before the first onRequest hook runs.
  if (refuseUnstorableText) {
    app.addHook("onRequest", (request, _reply, done) => {
      try {
        assertStorableText(request.params);
        assertStorableText(request.query);
      } catch (error) {
        return done(error as Error);
      }
      done();
    });
  }
  registerJsonBodyParser(app);
  registerWayOut(app);
  closeConnectionsAsTheyFallIdle(app);
  if (requestLog) registerRequestLog(app);
  const matcher = routeMatcher(Object.fromEntries(operations.map((operation) => [operation, operation])));
  registerErrorHandling(app, matcher.allowedMethods, failureOf);
  return app;
}
