import { maskCardNumbers, redactCardData } from "@payspec/server-kit";
import { createResponseChecker, paymentsAccountsSpec } from "@payspec/specs";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** One API request as the dashboard's request log shows it: card data masked, CVCs dropped. */
export interface LoggedRequest {
  /** Unique in this process; the log page links to an entry by it. */
  readonly id: number;
  readonly at: number;
  readonly method: string;
  /** Path and query, card-like digit runs masked. */
  readonly url: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly requestBody?: string;
  readonly responseBody?: string;
  /** The response checked against the payments spec: empty when it conforms, else what is wrong. */
  readonly violations: readonly string[];
}

/** How many requests each workspace's log keeps (the oldest go first). */
const KEPT_PER_WORKSPACE = 100;
/** Bodies are shown up to this many characters: a 10,000-record page is not a log line. */
const BODY_CHARS = 20_000;

declare module "fastify" {
  interface FastifyRequest {
    /** The response as sent, kept by onSend until onResponse knows the latency. */
    loggedPayload?: string;
  }
}

function shown(text: string | undefined): string | undefined {
  if (text === undefined || text === "") return undefined;
  if (text.length <= BODY_CHARS) return redactCardData(text);
  // Only the part shown is redacted (a 10,000-record page is megabytes); the margin lets a card
  // number that straddles the cut still be recognised whole and masked before it is cut.
  const head = redactCardData(text.slice(0, BODY_CHARS + 64)).slice(0, BODY_CHARS);
  return `${head}… (${text.length - BODY_CHARS} more characters)`;
}

function parsedJson(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || !contentType?.includes("json")) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The last requests each workspace made to the payments API, with the spec's verdict on each answer,
 * for the dashboard's live request log. Kept in this process's memory: with several instances behind
 * one URL, each shows the requests it served.
 */
export class ApiRequestLog {
  readonly #byWorkspace = new Map<string, LoggedRequest[]>();
  readonly #checker = createResponseChecker(paymentsAccountsSpec);
  #nextId = 1;

  /** Newest first. */
  entries(workspace: string): readonly LoggedRequest[] {
    return [...(this.#byWorkspace.get(workspace) ?? [])].reverse();
  }

  entry(workspace: string, id: number): LoggedRequest | undefined {
    return this.#byWorkspace.get(workspace)?.find((e) => e.id === id);
  }

  clear(workspace: string): void {
    this.#byWorkspace.delete(workspace);
  }

  /** Records every request to /v1 that named a workspace (the payments API sets request.workspace). */
  register(app: FastifyInstance): void {
    app.addHook("onSend", async (request, _reply, payload) => {
      if (request.workspace && typeof payload === "string") request.loggedPayload = payload;
      return payload;
    });
    app.addHook("onResponse", async (request, reply) => {
      if (!request.workspace) return;
      this.#add(request.workspace, request, reply);
    });
  }

  #add(workspace: string, request: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode;
    const headers = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    const type = headers["content-type"];
    const path = request.url.split("?")[0] ?? "";
    const body = request.loggedPayload;
    const violations = this.#checker.check({
      method: request.method,
      path,
      status,
      contentType: type ?? null,
      headers,
      body: parsedJson(body, type),
    });
    const requestBody = shown(request.body === undefined ? undefined : JSON.stringify(request.body));
    const responseBody = shown(body);
    const entry: LoggedRequest = {
      id: this.#nextId++,
      at: Date.now(),
      method: request.method,
      url: maskCardNumbers(request.url),
      status,
      latencyMs: reply.elapsedTime,
      violations: violations.map(redactCardData),
      ...(requestBody ? { requestBody } : {}),
      ...(responseBody ? { responseBody } : {}),
    };
    const log = this.#byWorkspace.get(workspace) ?? [];
    this.#byWorkspace.set(workspace, log);
    log.push(entry);
    if (log.length > KEPT_PER_WORKSPACE) log.splice(0, log.length - KEPT_PER_WORKSPACE);
  }
}
