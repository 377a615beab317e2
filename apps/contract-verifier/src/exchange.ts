import { redactCardData } from "@payspec/server-kit";
import { Agent, request as send } from "undici";
import type { RunSecrets } from "./secrets.js";

/** A request the verifier sent, as it appears in reports: card numbers masked, CVCs removed. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** The body as kept was cut short (reports keep its start): it cannot be sent again as it was. */
  readonly bodyCut?: true;
}

/** One request and what came back, with its timing. */
export interface RecordedExchange {
  readonly request: SentRequest;
  readonly status: number;
  readonly contentType: string | null;
  readonly headers: Record<string, string>;
  /** Parsed JSON, or undefined for other bodies. */
  readonly body: unknown;
  readonly bytes: Buffer;
  readonly ms: number;
}

export interface RequestSpec {
  readonly method: string;
  /** Path with query string. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as is. */
  readonly raw?: string;
}

function redactHeaders(headers: Record<string, string>, secrets: RunSecrets | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (secrets?.isSecretHeader(name)) out[name] = secrets.maskHeader(value);
    else out[name] = name.toLowerCase() === "authorization" ? `${value.split(" ")[0]} ***` : value;
  }
  return out;
}

/**
 * The provider did not answer: a timeout, a refused or reset connection, a body cut short. The
 * check that sent the request reports it as a violation (a provider that hangs is wrong, not the run).
 */
export class NoAnswer extends Error {
  constructor(
    readonly request: SentRequest,
    readonly timeoutMs: number,
    cause: unknown,
  ) {
    const reason =
      (cause as Error).name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : closedByServer(cause)
          ? "the server closed the connection before answering"
          : `the connection failed: ${String((cause as Error).cause ?? (cause as Error).message)}`;
    super(reason);
    this.kind = (cause as Error).name === "TimeoutError" ? "timeout" : closedByServer(cause) ? "closed" : "failed";
  }

  /** A timeout, a connection the server closed (after a 413, say), or another failure (refused, DNS). */
  readonly kind: "timeout" | "closed" | "failed";
}

/**
 * How undici names a server hanging up: "other side closed" (UND_ERR_SOCKET) or ECONNRESET; a body
 * shorter than its Content-Length on a connection that closes after the answer (one of a request's
 * own, below).
 */
const HANG_UPS = ["UND_ERR_SOCKET", "ECONNRESET", "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"];

/** How undici and Node describe a failed request: a code, and sometimes the failure beneath it or the attempts. */
type Failure = Error & { code?: string; cause?: Failure; errors?: { code?: string }[] };

function closedByServer(cause: unknown): boolean {
  const failure = cause as Failure;
  return [failure, failure.cause].some(
    (f) => HANG_UPS.includes(f?.code ?? "") || /other side closed/.test(f?.message ?? ""),
  );
}

/**
 * Each request with a body goes on a connection of its own (pipelining 0: no keep-alive), closed
 * after its answer. A server may refuse a body early (Unleash's 413 to an oversized import), keep the
 * connection open and then drop it at the next request: on a pooled connection that next request,
 * innocent, drew the verdict "closed before answering", and on a loaded machine the timing decided
 * which request it was. A loopback connection costs a fraction of a millisecond; requests without a
 * body keep the shared pool.
 */
const OWN_CONNECTION = new Agent({ pipelining: 0 });

/** What a request carries unless the run gives its own: fetch sent these, and a server may log the tool's name. */
const WIRE_DEFAULTS = { accept: "*/*", "user-agent": "payspec-verify" };

/** The request's headers with each default it does not set itself, whatever the case of its names. */
function withWireDefaults(headers: Readonly<Record<string, string>>): Record<string, string> {
  const given = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const defaults = Object.entries(WIRE_DEFAULTS).filter(([name]) => !given.has(name));
  return { ...Object.fromEntries(defaults), ...headers };
}

/** How much of a request body the record keeps, and how far past that it is made safe first. */
const KEPT = 2000;
const EDGE = 4096;

/**
 * The start of a request body as the record keeps it, credentials masked and card data redacted.
 * Only the first KEPT characters are kept, so only a little more than that is redacted (a credential
 * or a card number cut at that edge is still masked whole): a generated body of megabytes cost a
 * third of a run on Unleash when all of it was parsed and redacted to keep 2,000 characters.
 */
export function recordedBody(body: string, secrets: RunSecrets | undefined): string {
  const start = body.length > KEPT + EDGE ? body.slice(0, KEPT + EDGE) : body;
  return redactCardData(secrets ? secrets.redact(start) : start).slice(0, KEPT);
}

/**
 * Sends one request to `baseUrl` and records it, credentials masked (`secrets`: which headers and
 * query parameters carry them). When no answer comes, rejects with NoAnswer.
 */
export async function exchange(
  baseUrl: string,
  spec: RequestSpec,
  timeoutMs: number,
  secrets?: RunSecrets,
): Promise<RecordedExchange> {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers["content-type"] ??= "application/json";
  } else if (spec.raw !== undefined) body = spec.raw;
  const request: SentRequest = {
    method: spec.method,
    path: redactCardData(secrets ? secrets.maskPath(spec.path) : spec.path),
    headers: redactHeaders(headers, secrets),
    ...(body === undefined ? {} : { body: recordedBody(body, secrets) }),
    ...(body !== undefined && body.length > KEPT ? { bodyCut: true as const } : {}),
  };
  const start = process.hrtime.bigint();
  let status: number;
  let answered: Record<string, string>;
  let bytes: Buffer;
  try {
    // undici's request, not fetch: the answer as the wire has it. fetch follows redirects, answers a
    // 407 with a network error (it would authenticate to a proxy), and refuses a body on GET or HEAD,
    // which some specs declare (a search with a body); each of those was reported as the provider's fault.
    const response = await send(`${baseUrl}${spec.path}`, {
      method: spec.method,
      headers: withWireDefaults(headers),
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined ? {} : { body, dispatcher: OWN_CONNECTION }),
    });
    bytes = Buffer.from(await response.body.arrayBuffer());
    status = response.statusCode;
    answered = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : String(value),
      ]),
    );
  } catch (error) {
    throw new NoAnswer(request, timeoutMs, error);
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const contentType = answered["content-type"] ?? null;
  let parsed: unknown;
  if (contentType?.includes("json") && bytes.length > 0) {
    try {
      parsed = JSON.parse(bytes.toString("utf8"));
    } catch {
      parsed = undefined;
    }
  }
  return {
    request,
    status,
    contentType,
    headers: answered,
    body: parsed,
    bytes,
    ms,
  };
}

/**
 * Why nothing answers at `url` (a refused connection: its code, a timeout), or undefined when
 * something does, whatever its status: the run's first contact, sent as every request is (with the
 * run's own headers, so a gateway that admits only its user agent admits this one too), on a
 * connection of its own: a pooled one left by an earlier run may be one the server is closing as
 * idle, and its reset is no answer about the server.
 */
export async function unanswered(
  url: string,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
): Promise<string | undefined> {
  try {
    const response = await send(url, {
      method: "GET",
      headers: withWireDefaults(headers),
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher: OWN_CONNECTION,
    });
    await response.body.dump();
    return undefined;
  } catch (error) {
    const failure = error as Failure;
    if (failure.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
    return failure.code ?? failure.errors?.[0]?.code ?? failure.cause?.code ?? failure.message;
  }
}
