import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiFailure } from "./api-failure.js";
import type { FaultName } from "./fault-catalogue.js";

/** One fault striking one request, with its parameters already decided. */
export interface FaultStrike {
  readonly fault: FaultName;
  /** For latency faults: how long, already drawn from the range. */
  readonly latencyMs: number;
  readonly retryAfterSeconds: number;
  /** For batch-partial: how many results are sent before the answer stops. */
  readonly results: number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The fault striking this request, decided once its caller is known (see `registerFaultHooks`). */
    faultStrike: FaultStrike | undefined;
  }
}

/** A stalled answer is given up by the server itself after this long, so no socket is held for ever. */
const STALL_LIMIT_MS = 10 * 60_000;

/**
 * Acts on a fault that strikes before handling: a wait, an error in the API's shape, or a refusal
 * that the answer's way out (`registerFaultHooks`) turns into a connection reset. Throws what the
 * error handler renders; the caller has set `request.faultStrike` so the way out acts on the rest.
 */
export async function actBeforeHandling(strike: FaultStrike, reply: FastifyReply): Promise<void> {
  switch (strike.fault) {
    case "latency-before":
      await sleep(strike.latencyMs);
      return;
    case "error-500":
      throw new ApiFailure(
        "internal_error",
        "This request failed on purpose (fault error-500); nothing was done. Retry it.",
      );
    case "error-503":
      throw new ApiFailure(
        "service_unavailable",
        `The service is unavailable (fault error-503); nothing was done. Retry after ${strike.retryAfterSeconds} s.`,
        { retryAfterSeconds: strike.retryAfterSeconds },
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
  let answer: { results?: unknown[] } = {};
  try {
    answer = JSON.parse(payload) as { results?: unknown[] };
  } catch {
    // Not JSON (an error page from a proxy in front, say): half of it is cut as well.
  }
  if (!Array.isArray(answer.results)) return payload.slice(0, payload.length >> 1);
  const whole = JSON.stringify(answer.results);
  const at = payload.indexOf(whole);
  if (at < 0) return payload.slice(0, payload.length >> 1);
  return payload.slice(0, at) + JSON.stringify(answer.results.slice(0, results)).slice(0, -1);
}

export interface FaultHookOptions {
  /**
   * Sees every answer as the handler made it, before a strike changes it: a request log that records
   * the answer as handled, with the fault's name, whatever the client then sees. Called from the same
   * onSend hook, so that every request runs one hook on its way out instead of two. An answer can pass
   * more than once (see below): the observer records it once.
   */
  readonly beforeStrike?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;
}

/**
 * Acts on the faults that strike on the way out, after the handler has committed its work, for every
 * request whose `faultStrike` is set. Registered once, at the root.
 */
export function registerFaultHooks(app: FastifyInstance, { beforeStrike }: FaultHookOptions = {}): void {
  const stalled = new Set<Socket>();
  app.decorateRequest("faultStrike", undefined);
  // A fault's stream that closes early makes Fastify send an error answer through onSend again; acting
  // on the strike once keeps that answer from striking anew (stream after stream on one response).
  const actedOn = new WeakSet<object>();
  // A callback hook whose common case, no strike, returns at once: an async hook would cost every
  // request a promise and a turn of the event loop.
  app.addHook("onSend", (request, reply, payload, done) => {
    beforeStrike?.(request, reply, payload);
    const strike = request.faultStrike;
    if (strike === undefined || actedOn.has(request)) return done(null, payload);
    actedOn.add(request);
    actOnTheWayOut(strike, request, reply, payload).then(
      (answer) => done(null, answer),
      (error: Error) => done(error),
    );
  });
  async function actOnTheWayOut(strike: FaultStrike, request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const socket = request.raw.socket;
    // Answers are JSON text, or a Buffer for a file (the gateway's .xlsx report): cut either by bytes.
    const bytes =
      typeof payload === "string" ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : Buffer.alloc(0);
    const half = bytes.subarray(0, bytes.length >> 1);
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
        return cutAfter(socket, batchPrefix(bytes.toString("utf8"), strike.results));
      case "truncated-body": {
        reply.header("content-length", String(bytes.length));
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
  }
  // A stalled answer never ends by itself: closing the server ends it. Before the close waits for
  // in-flight requests (preClose), not after (onClose): a stalled one is never done, and the close
  // then waited for the stall's own ten-minute limit.
  app.addHook("preClose", (done) => {
    for (const socket of stalled) socket.destroy();
    done();
  });
}
