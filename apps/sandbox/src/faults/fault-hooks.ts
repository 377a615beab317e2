import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DeclaredFaults, Strike } from "./declared-faults.js";
import { operationKey } from "./operation-names.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The fault striking this request, decided once its caller is known. */
    faultStrike: Strike | undefined;
  }
}

/** A stalled answer is given up by the sandbox itself after this long, so no socket is held for ever. */
const STALL_LIMIT_MS = 10 * 60_000;

/**
 * Decides whether a fault strikes this request (its scope known: the caller is authenticated) and
 * acts on the faults that strike before handling: a wait, an error in the API's shape, or a refusal
 * that the answer's way out turns into a connection reset. Throws what the error handler renders.
 */
export async function faultBeforeHandling(
  faults: DeclaredFaults,
  scope: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const strike = faults.strike(scope, operationKey(request.method, request.routeOptions.url ?? ""));
  if (strike === undefined) return;
  request.faultStrike = strike;
  switch (strike.fault) {
    case "latency-before":
      await sleep(strike.latencyMs);
      return;
    case "error-500":
      throw new ApiFailure(
        "internal_error",
        "The sandbox failed this request on purpose (fault error-500); nothing was done. Retry it.",
      );
    case "error-503":
      reply.header("retry-after", String(strike.retryAfterSeconds));
      throw new ApiFailure(
        "internal_error",
        `The service is unavailable (fault error-503); nothing was done. Retry after ${strike.retryAfterSeconds} s.`,
        { status: 503 },
      );
    case "rate-limit":
      reply.header("retry-after", String(strike.retryAfterSeconds));
      throw new ApiFailure(
        "internal_error",
        `Too many requests (fault rate-limit); nothing was done. Retry after ${strike.retryAfterSeconds} s.`,
        { status: 429 },
      );
    case "reset-before":
      // Never sent: the way out resets the connection instead.
      throw new ApiFailure("internal_error", "Connection reset before handling (fault reset-before).", { status: 503 });
    default:
      return;
  }
}

/** A body that resets the connection when it is about to be written: the client sees ECONNRESET. */
function resetting(socket: Socket | null): Readable {
  return new Readable({
    read() {
      socket?.resetAndDestroy();
    },
  });
}

/** How long the part of an answer that is sent gets to reach the client before the connection closes. */
const FLUSH_MS = 50;

/**
 * A body that sends `prefix` and then closes the connection without finishing the answer: the client
 * has the part, then sees the connection end early. Closed, not reset: a reset may discard what the
 * client had not read yet.
 */
function cutAfter(socket: Socket | null, prefix: string): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(prefix);
      setTimeout(() => socket?.destroy(), FLUSH_MS).unref();
    },
  });
}

/** A batch answer cut after `results` results: its JSON up to the end of the last one sent. */
function batchPrefix(payload: string, results: number): string {
  const answer = JSON.parse(payload) as { results?: unknown[] };
  if (!Array.isArray(answer.results)) return payload.slice(0, payload.length >> 1);
  const whole = JSON.stringify(answer.results);
  const at = payload.indexOf(whole);
  if (at < 0) return payload.slice(0, payload.length >> 1);
  return payload.slice(0, at) + JSON.stringify(answer.results.slice(0, results)).slice(0, -1);
}

/**
 * Acts on the faults that strike on the way out, after the handler has committed its work. Registered
 * once, at the root, after the request log's hook, so the log records the answer as handled, with the
 * fault's name, whatever the client then sees.
 */
export function registerFaultHooks(app: FastifyInstance): void {
  const stalled = new Set<Socket>();
  app.decorateRequest("faultStrike", undefined);
  app.addHook("onSend", async (request, reply, payload) => {
    const strike = request.faultStrike;
    if (strike === undefined) return payload;
    const socket = request.raw.socket;
    const text = typeof payload === "string" ? payload : "";
    switch (strike.fault) {
      case "latency-after":
        await sleep(strike.latencyMs);
        return payload;
      case "wrong-content-type":
        reply.header("content-type", "text/html; charset=utf-8");
        return payload;
      case "reset-before":
      case "reset-after-commit":
        return resetting(socket);
      case "batch-partial":
        reply.removeHeader("content-length");
        return cutAfter(socket, batchPrefix(text, strike.results));
      case "truncated-body": {
        reply.header("content-length", String(Buffer.byteLength(text)));
        const half = Buffer.from(text).subarray(0, Buffer.byteLength(text) >> 1);
        return new Readable({
          read() {
            this.push(half);
            this.push(null);
            // Everything promised was not sent: the connection closes once the half is out.
            setImmediate(() => socket?.destroySoon());
          },
        });
      }
      case "stall": {
        if (socket) {
          stalled.add(socket);
          socket.once("close", () => stalled.delete(socket));
          setTimeout(() => socket.destroy(), STALL_LIMIT_MS).unref();
        }
        const half = text.slice(0, text.length >> 1);
        let sent = false;
        return new Readable({
          read() {
            if (!sent) this.push(half);
            sent = true;
          },
        });
      }
      default:
        return payload;
    }
  });
  // A stalled answer never ends by itself: closing the sandbox ends it.
  app.addHook("onClose", async () => {
    for (const socket of stalled) socket.destroy();
  });
}
