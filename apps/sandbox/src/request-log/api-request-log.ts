import { FAULTS, type FaultStrike, maskCardNumbers, redactCardData } from "@payspec/server-kit";
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
  /** The status the client received; undefined when it received none (an injected connection reset). */
  readonly status: number | undefined;
  /** As the client saw it: an injected latency included. */
  readonly latencyMs: number;
  readonly requestBody?: string;
  readonly responseBody?: string;
  /**
   * The fault a test declared that struck this request, and what the client saw: an injected fault
   * is the sandbox doing what it was asked, not a provider bug, so it is never judged against the spec.
   */
  readonly fault?: { readonly name: string; readonly clientSaw: string };
  /** The response checked against the payments spec: empty when it conforms (or a fault was injected), else what is wrong. */
  readonly violations: readonly string[];
}

/** Faults after which the client received no status line at all. */
const NO_STATUS_SEEN: ReadonlySet<string> = new Set(["reset-before", "reset-after-commit"]);

/** What the client saw of a struck request: status and latency as it met them. */
function asTheClientSaw(strike: FaultStrike, status: number, elapsedMs: number) {
  return {
    status: NO_STATUS_SEEN.has(strike.fault) ? undefined : status,
    // latency-before waits inside the request's time already; latency-after waits once the answer is made.
    latencyMs: strike.fault === "latency-after" ? elapsedMs + strike.latencyMs : elapsedMs,
    fault: { name: strike.fault, clientSaw: FAULTS[strike.fault].clientSees },
  };
}

/** How many requests each workspace's log keeps (the oldest go first). */
const KEPT_PER_WORKSPACE = 100;
/** Bodies are shown up to this many characters: a 10,000-record page is not a log line. */
const BODY_CHARS = 20_000;

function shown(text: string | undefined): string | undefined {
  if (text === undefined || text === "") return undefined;
  if (text.length <= BODY_CHARS) return redactCardData(text);
  // Only the part shown is redacted (a 10,000-record page is megabytes); the margin lets a card
  // number that straddles the cut still be recognised whole and masked before it is cut.
  const head = redactCardData(text.slice(0, BODY_CHARS + 64)).slice(0, BODY_CHARS);
  return `${head}… (${text.length - BODY_CHARS} more characters)`;
}

/**
 * The body as the caller sent it, when it is short enough to show whole: redacting the whole text
 * parses it, so card data hidden in \u escapes is found. A longer one is shown as its parsed value
 * serialized again, whose cut can hold no half-read escape.
 */
function shownRequestBody(request: FastifyRequest): string | undefined {
  if (request.body === undefined) {
    // A fault that strikes before handling answers before the body is read: it was sent all the same.
    const sent =
      Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
    return sent && request.faultStrike
      ? "(sent, not read: the injected fault answered before the body was read)"
      : undefined;
  }
  const text = request.bodyText;
  return shown(text !== undefined && text.length <= BODY_CHARS ? text : JSON.stringify(request.body));
}

function parsedJson(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || !contentType?.includes("json")) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An entry as kept: what is costly to show is worked out the first time someone looks at it. */
interface KeptRequest extends Omit<LoggedRequest, "violations" | "responseBody" | "requestBody" | "fault"> {
  violations?: readonly string[];
  responseBody?: string | undefined;
  readonly requestBody: string | undefined;
  readonly fault: LoggedRequest["fault"] | undefined;
  /**
   * While no one has looked: the answer as sent (never cut: a body too long to show whole is cut,
   * redacted and judged at once). The sandbox's answers carry no card data of their own; they are
   * redacted for display all the same, when first shown. The path judged is the masked URL's.
   */
  pending?: {
    readonly contentType: string | undefined;
    readonly headers: Readonly<Record<string, unknown>>;
    readonly text: string | undefined;
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set once the request log has recorded this request. */
    inRequestLog: boolean;
  }
}

/** A workspace's last requests, in a ring: recording one moves none of the others. */
class KeptRequests {
  readonly #slots: KeptRequest[] = [];
  /** Where the next request goes once the ring is full, which is where the oldest is. */
  #next = 0;

  add(entry: KeptRequest): void {
    if (this.#slots.length < KEPT_PER_WORKSPACE) {
      this.#slots.push(entry);
      return;
    }
    this.#slots[this.#next] = entry;
    this.#next = (this.#next + 1) % KEPT_PER_WORKSPACE;
  }

  newestFirst(): KeptRequest[] {
    return [...this.#slots.slice(this.#next), ...this.#slots.slice(0, this.#next)].reverse();
  }

  find(id: number): KeptRequest | undefined {
    return this.#slots.find((entry) => entry.id === id);
  }
}

/**
 * The last requests each workspace made to the payments API, with the spec's verdict on each answer,
 * for the dashboard's live request log. Kept in this process's memory: with several instances behind
 * one URL, each shows the requests it served.
 *
 * Recording sits on every API request's path, so it does as little as it can there: the spec's
 * verdict and the answer's display form are worked out when the log is looked at (most entries never
 * are). What the caller sent is made safe at once, since it may hold card data.
 */
export class ApiRequestLog {
  readonly #byWorkspace = new Map<string, KeptRequests>();
  readonly #checker = createResponseChecker(paymentsAccountsSpec);
  #nextId = 1;

  /** Newest first. */
  entries(workspace: string): readonly LoggedRequest[] {
    return (this.#byWorkspace.get(workspace)?.newestFirst() ?? []).map((entry) => this.#judged(entry));
  }

  entry(workspace: string, id: number): LoggedRequest | undefined {
    const found = this.#byWorkspace.get(workspace)?.find(id);
    return found && this.#judged(found);
  }

  clear(workspace: string): void {
    this.#byWorkspace.delete(workspace);
  }

  /** Records every request to /v1 that named a workspace (the payments API sets request.workspace). */
  register(app: FastifyInstance): void {
    const record = this.recorder(app);
    app.addHook("onSend", (request, reply, payload, done) => {
      record(request, reply, payload);
      done(null, payload);
    });
  }

  /**
   * What records an answer, for an onSend hook that runs on every request already (the fault hooks'
   * `beforeStrike`): one hook on the way out instead of two. Like `register`, it records every
   * request to /v1 that named a workspace.
   */
  recorder(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void {
    // Recorded as the answer leaves (latency up to then), where waiting for onResponse would take a
    // hook of its own on every request.
    // A struck request's early-closed stream makes Fastify send an error answer through onSend again:
    // the request is logged once, as the handler answered it.
    // A flag on the request, not a WeakSet of requests: a weak collection with an entry per request
    // makes every garbage collection walk it, which cost a quarter of the throughput.
    app.decorateRequest("inRequestLog", false);
    return (request, reply, payload) => {
      if (!request.workspace || request.inRequestLog) return;
      request.inRequestLog = true;
      this.#add(request.workspace, request, reply, typeof payload === "string" ? payload : undefined);
    };
  }

  #judged(entry: KeptRequest): LoggedRequest {
    const pending = entry.pending;
    if (pending) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(pending.headers)) headers[name] = String(value);
      const exchange = {
        method: entry.method,
        path: entry.url.split("?")[0] ?? "",
        status: entry.status,
        contentType: pending.contentType ?? null,
        headers,
        body: parsedJson(pending.text, pending.contentType),
      };
      entry.violations =
        entry.fault || exchange.status === undefined
          ? []
          : this.#checker.check({ ...exchange, status: exchange.status }).map(redactCardData);
      entry.responseBody = shown(pending.text);
      entry.pending = undefined;
    }
    const { pending: _, requestBody, responseBody, fault, ...shownEntry } = entry;
    return {
      ...shownEntry,
      ...(requestBody === undefined ? {} : { requestBody }),
      ...(responseBody === undefined ? {} : { responseBody }),
      ...(fault === undefined ? {} : { fault }),
      violations: entry.violations ?? [],
    };
  }

  // On every API request's path: one object per request, nothing worked out that can wait.
  #add(workspace: string, request: FastifyRequest, reply: FastifyReply, text: string | undefined) {
    const strike = request.faultStrike;
    const entry: KeptRequest = {
      id: this.#nextId++,
      at: Date.now(),
      method: request.method,
      url: maskCardNumbers(request.url),
      status: reply.statusCode,
      latencyMs: reply.elapsedTime,
      fault: undefined,
      ...(strike ? asTheClientSaw(strike, reply.statusCode, reply.elapsedTime) : {}),
      requestBody: shownRequestBody(request),
      pending: {
        contentType: reply.getHeader("content-type") as string | undefined,
        headers: reply.getHeaders(),
        text,
      },
    };
    // A body too long to keep whole is judged and cut now, not held in full until someone looks.
    if (text !== undefined && text.length > BODY_CHARS) this.#judged(entry);
    let log = this.#byWorkspace.get(workspace);
    if (!log) {
      log = new KeptRequests();
      this.#byWorkspace.set(workspace, log);
    }
    log.add(entry);
  }
}
