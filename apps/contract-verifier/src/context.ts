import { appendFileSync } from "node:fs";
import { seededRandom } from "@payspec/server-kit";
import {
  cardGatewaySpec,
  createResponseChecker,
  createSpecValidator,
  paymentsAccountsSpec,
  type ResponseChecker,
  type SpecValidator,
} from "@payspec/specs";
import { basicAuthorization } from "./basic-auth.js";
import { SetupFailed, SkipCheck } from "./check-outcomes.js";
import { CoverageRecorder } from "./coverage.js";
import { CreatedRecords } from "./created-records.js";
import { deletableCollections } from "./destructive-calls.js";
import { DiscoveredIds } from "./discovered-ids.js";
import {
  exchange,
  NoAnswer,
  type RecordedExchange,
  type RequestSpec,
  type SentRequest,
  unanswered,
} from "./exchange.js";
import {
  type ApiName,
  credentialKeysFor,
  IDEMPOTENT_METHODS,
  SAFE_METHODS,
  type VerifyOptions,
  variableFor,
} from "./options.js";
import { shapeOf } from "./replay/answer-shape.js";
import { type CredentialPlaceholders, curlFor } from "./reproduction.js";
import { checkSeed, RETRY_AFTER_ATTEMPTS, RETRY_AFTER_CAP_MS, RequestPacing, retryAfterMs } from "./request-pacing.js";
import { RunSecrets } from "./secrets.js";
import { seededUuid } from "./seeded-uuid.js";
import { cardDataFindings, cardDataIn } from "./sensitive-data.js";
import { type RecentRequest, ServerDown } from "./server-down.js";
import { shownValue } from "./shown-value.js";
import { operationsOf } from "./spec-operations.js";

export interface AccountPair {
  readonly from: string;
  readonly to: string;
  readonly currency: string;
}

export interface AccountRef {
  readonly id: string;
  readonly currency: string;
}

export interface ApiHandle {
  readonly name: ApiName;
  readonly baseUrl: string;
  readonly spec: object;
  readonly checker: ResponseChecker;
  readonly validator: SpecValidator;
}

export type Authentication = "default" | "none" | { readonly authorization: string };

/** A successful card payment of the run, as its answer said: what the day's report must show of it. */
export interface PaidCard {
  readonly day: string;
  readonly referenceId: string;
  readonly transactionId: string;
  /** As the provider answered them: not checked here (the answer's own checks judge them). */
  readonly amount: unknown;
  readonly currency: unknown;
  readonly maskedCard: unknown;
}

export interface SendOptions extends RequestSpec {
  /** Credentials: the run's own (default), none, or a given Authorization header. */
  readonly auth?: Authentication;
}

/**
 * What every check shares for one run: where the APIs are, their specs, credentials, the seeded
 * random source, and a few things worth fetching once (the gateway token, the workspace's accounts).
 */
export class VerifyContext {
  /**
   * The current check's seeded random source: made from the run's seed and the check's id alone
   * (beginCheck), so a check sends the same requests whether it runs among all or alone (--only).
   */
  random: () => number;
  /** The successful card payments the run made, by referenceId (lower case): the day's report must hold each. */
  readonly paidCards = new Map<string, PaidCard>();
  /** Ids the server returned from its list operations, for path parameters (runs of another spec). */
  readonly discovered = new DiscoveredIds();
  /** What a run of another spec created on the server, to delete at its end (CreatedRecords). */
  created: CreatedRecords | undefined;
  /** The collections whose members the spec deletes: adding one to a listed parent is undone at the end. */
  deletableChildren: ReadonlySet<string> = new Set();
  readonly #pacing: RequestPacing | undefined;
  readonly apis: Partial<Record<ApiName, ApiHandle>> = {};
  #token: Promise<string> | undefined;
  #accounts: Promise<{ readonly list: readonly AccountRef[]; readonly problem?: string }> | undefined;
  /** Card numbers and CVCs the run has sent, so that an echo of them is recognised. */
  readonly sentCardData = { cardNumbers: new Set<string>(), cvcs: new Set<string>() };
  /** Responses that held card data, by the check that made the request: `sensitive.card-data` reports them. */
  readonly cardDataLeaks: {
    check: string;
    api: ApiName;
    baseUrl: string;
    exchange: RecordedExchange;
    findings: string[];
  }[] = [];
  /** Answers that repeated a credential the run sent: `sensitive.credentials` reports them. */
  readonly credentialEchoes: {
    check: string;
    api: ApiName;
    baseUrl: string;
    exchange: RecordedExchange;
    where: string[];
  }[] = [];
  /** Every credential of the run: masked in every report, and looked for in every answer. */
  readonly secrets = new RunSecrets();
  /** How far the run moved each sandbox clock (`workspace`, `gateway`), in seconds: put back at the end. */
  readonly clockMoves = new Map<"workspace" | "gateway", number>();
  /** The status of every answer, by the check that asked: the run's warnings read them. */
  readonly answers: { check: string; status: number }[] = [];
  /** Operations whose request body the run cannot make (a media type other than JSON and forms), with those types. */
  readonly unmadeBodies = new Set<string>();
  /** Operations a check of the run left alone for want of an id the run made itself, and why. */
  readonly leftAlone = new Map<string, string>();
  /** Which declared statuses and constraints the run exercised. */
  readonly coverage = new CoverageRecorder();
  /** How many responses the sensitive-data rule has read. */
  exchangesScanned = 0;
  /** Positive checks of an --spec run, and the operations of which every valid request was refused (not 401/403). */
  readonly acceptance = { ran: 0, refusedAll: [] as string[] };
  /** Requests that carried the run's own credentials, and how many of them were refused (401, 403). */
  readonly credentialed = { sent: 0, refused: 0 };
  /** The last requests sent, the newest first: the ones to name when the target falls over. */
  readonly #recent: RecentRequest[] = [];
  /** Set once the target stopped answering: no request is sent after it. */
  #down: ServerDown | undefined;

  /** `anySpec`: the document of an --spec run, already loaded. */
  constructor(
    readonly options: VerifyOptions,
    anySpec?: object,
  ) {
    this.random = seededRandom(options.seed);
    this.#pacing = options.rateLimit === undefined ? undefined : new RequestPacing(options.rateLimit);
    for (const value of Object.values(options.auth ?? {})) {
      this.secrets.addValue(value);
      // A Basic scheme's user:password goes out base64-encoded: an echo of that is a leak too.
      if (value.includes(":")) this.secrets.addValue(basicAuthorization(value));
    }
    if (options.openapiUrl && anySpec) {
      this.apis.openapi = {
        name: "openapi",
        baseUrl: options.openapiUrl,
        spec: anySpec,
        checker: createResponseChecker(anySpec, { showValue: shownValue }),
        validator: createSpecValidator(anySpec, { showValue: shownValue }),
      };
      const operations = operationsOf("openapi", anySpec);
      this.created = new CreatedRecords(operations);
      // Only when the run deletes what it adds: --keep-created keeps a child in a listed parent out.
      if (!options.keepCreated) this.deletableChildren = deletableCollections(operations);
    }
    if (options.paymentsUrl) {
      this.apis.payments = {
        name: "payments",
        baseUrl: options.paymentsUrl,
        spec: paymentsAccountsSpec,
        checker: createResponseChecker(paymentsAccountsSpec, { showValue: shownValue }),
        validator: createSpecValidator(paymentsAccountsSpec, { showValue: shownValue }),
      };
    }
    if (options.gatewayUrl) {
      this.apis.gateway = {
        name: "gateway",
        baseUrl: options.gatewayUrl,
        spec: cardGatewaySpec,
        checker: createResponseChecker(cardGatewaySpec, { showValue: shownValue }),
        validator: createSpecValidator(cardGatewaySpec, { showValue: shownValue }),
      };
    }
    for (const handle of Object.values(this.apis)) this.coverage.track(handle.name, handle.spec, handle.checker);
    for (const [name, value] of Object.entries(options.headers ?? {})) this.secrets.addHeader(name, value);
    if (anySpec) {
      type Scheme = { type?: string; in?: string; name?: string };
      const schemes = (anySpec as { components?: { securitySchemes?: Record<string, Scheme> } }).components
        ?.securitySchemes;
      for (const scheme of Object.values(schemes ?? {})) {
        if (scheme.type !== "apiKey" || typeof scheme.name !== "string") continue;
        if (scheme.in === "query") this.secrets.addQuery(scheme.name);
        else this.secrets.addHeader(scheme.in === "cookie" ? "cookie" : scheme.name);
      }
    } else {
      for (const value of [options.apiKey, options.gatewayKey, options.gatewaySecret, this.basicCredentials()])
        this.secrets.addValue(value);
    }
  }

  /** Every check starts from its own seed: its data never depends on which checks ran before it. */
  beginCheck(id: string): void {
    this.random = seededRandom(checkSeed(this.options.seed, id));
  }

  api(name: ApiName): ApiHandle {
    const handle = this.apis[name];
    if (!handle) throw new Error(`No URL for the ${name} API.`);
    return handle;
  }

  uuid(): string {
    return seededUuid(this.random);
  }

  basicCredentials(key = this.options.gatewayKey, secret = this.options.gatewaySecret): string {
    return basicAuthorization(`${key}:${secret}`);
  }

  async send(api: ApiName, request: SendOptions, check = "(setup)"): Promise<RecordedExchange> {
    const headers: Record<string, string> = { ...request.headers };
    const auth = request.auth ?? "default";
    if (typeof auth === "object") headers.authorization = auth.authorization;
    else if (auth === "default") {
      if (api === "openapi") Object.assign(headers, this.options.headers, request.headers);
      else if (api === "payments") headers.authorization = `Bearer ${this.options.apiKey}`;
      else if (request.path.startsWith("/auth/login")) headers.authorization = this.basicCredentials();
      else headers.authorization = `Bearer ${await this.token()}`;
    }
    let path = request.path;
    let carries = auth === "default" && (api !== "openapi" || Object.keys(this.options.headers ?? {}).length > 0);
    if (auth === "default" && api === "openapi" && this.options.auth) {
      const credentials = this.#schemeCredentials(request.method, request.path);
      carries ||= Object.keys(credentials.headers).length + credentials.query.length > 0;
      Object.assign(headers, credentials.headers);
      const query = credentials.query.map(
        ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
      );
      if (query.length > 0) path += `${path.includes("?") ? "&" : "?"}${query.join("&")}`;
    }
    if (this.options.readOnly && !SAFE_METHODS.includes(request.method.toUpperCase())) {
      throw new SkipCheck(`it needs a ${request.method} request, which --read-only never sends`);
    }
    cardDataIn(request.json, this.sentCardData);
    const reply = await this.#exchangePaced(api, { ...request, path, headers }, check);
    // A discovery answer is asked again by that operation's own checks, which report any leak with a
    // rerun line that names them.
    if (check !== "(discovery)") this.#scanForSensitiveData(reply, check, api);
    this.#notePaidCard(api, request, reply);
    if (api === "openapi") this.created?.note(request.method, request.path, reply.status, reply, request.json);
    this.#noteClockMove(api, request, reply);
    this.answers.push({ check, status: reply.status });
    if (carries && reply.status !== 429) {
      this.credentialed.sent++;
      if (reply.status === 401 || reply.status === 403) this.credentialed.refused++;
    }
    this.coverage.answered(api, request.method, request.path.split("?")[0] ?? "", reply.status);
    return reply;
  }

  /**
   * One request with the run's manners: paced (--rate-limit), a 429 or a 503 with Retry-After waited
   * out a few times, and an idempotent request the server hung up on sent once more. Recorded in the
   * cassette (--record) as sent, credentials masked.
   */
  async #exchangePaced(api: ApiName, request: RequestSpec, check: string): Promise<RecordedExchange> {
    if (this.#down) throw this.#down;
    const idempotent = IDEMPOTENT_METHODS.includes(request.method.toUpperCase());
    let closedOnce = false;
    for (let attempt = 0; ; attempt++) {
      await this.#pacing?.take();
      let reply: RecordedExchange;
      try {
        reply = await exchange(this.api(api).baseUrl, request, this.options.timeoutMs, this.secrets);
      } catch (error) {
        this.#record(check, api, error instanceof NoAnswer ? error.request : undefined, "no answer");
        if (!(error instanceof NoAnswer)) throw error;
        // A refused connection was never a request the server saw: it cannot be what brought it down.
        if (!/ECONNREFUSED/.test(error.message))
          this.#remember(check, api, error.request, `no answer: ${error.message}`);
        if (error.kind === "closed" && idempotent && !closedOnce) {
          closedOnce = true;
          continue;
        }
        await this.#probe(api);
        throw error;
      }
      this.#remember(check, api, reply.request, reply.status);
      this.#record(check, api, reply.request, reply);
      const wait = retryAfterMs(reply.status, reply.headers);
      if (wait === undefined) return reply;
      // Still refused after the last wait, or asked to wait longer than the run waits (Unleash's login
      // asks for a minute): the caller decides at once (a 429 draws no verdict, see the runner).
      if (attempt >= RETRY_AFTER_ATTEMPTS || wait > (this.options.retryAfterMaxMs ?? RETRY_AFTER_CAP_MS)) return reply;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Why the target stopped answering, once it has (and has not come back). */
  get serverDown(): ServerDown | undefined {
    return this.#down;
  }

  #remember(check: string, api: ApiName, request: SentRequest, answered: number | string): void {
    this.#recent.unshift({ check, api, request, answered });
    this.#recent.length = Math.min(this.#recent.length, 3);
  }

  /**
   * After a request got no answer: whether the target still answers anything. When it does not, it
   * fell over: the run stops sending (ServerDown), naming the requests sent just before.
   */
  async #probe(api: ApiName): Promise<void> {
    const why = await unanswered(this.api(api).baseUrl, Math.min(this.options.timeoutMs, 5_000), this.options.headers);
    if (why === undefined) return;
    this.#down = new ServerDown(why, [...this.#recent]);
    throw this.#down;
  }

  /**
   * After the run's last request: whether the target still answers. A server that a late request
   * brought down would otherwise go unnoticed, every check of the run having got its answer.
   */
  async probeAfterLastRequest(): Promise<ServerDown | undefined> {
    if (this.#down) return undefined;
    for (const api of Object.keys(this.apis) as ApiName[]) {
      const why = await unanswered(
        this.api(api).baseUrl,
        Math.min(this.options.timeoutMs, 5_000),
        this.options.headers,
      );
      if (why !== undefined) {
        this.#down = new ServerDown(why, [...this.#recent]);
        return this.#down;
      }
    }
    return undefined;
  }

  /**
   * Waits, at most `ms`, for the fallen target to answer again (--wait-for-restart). True when it
   * did: the run goes on; the requests it remembered are those of the new life.
   */
  async awaitRestart(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    const urls = [...new Set(Object.values(this.apis).map((a) => a.baseUrl))];
    while (Date.now() < deadline) {
      const silent = await Promise.all(urls.map((url) => unanswered(url, 2_000, this.options.headers)));
      if (silent.every((why) => why === undefined)) {
        this.#down = undefined;
        this.#recent.length = 0;
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now()))));
    }
    return false;
  }

  /** A successful card payment of the run, whichever check made it, for the report checks. */
  #notePaidCard(api: ApiName, request: RequestSpec, reply: RecordedExchange): void {
    if (api !== "gateway" || request.method !== "POST" || !request.path.startsWith("/api/v1/payments/card")) return;
    const paid = (reply.body as { response?: Record<string, unknown> } | undefined)?.response;
    if (reply.status !== 200 || paid?.paymentStatus !== "SUCCESS") return;
    if (typeof paid.referenceId !== "string" || typeof paid.createdDate !== "string") return;
    const card = paid.cardDetails as { cardNumber?: unknown } | undefined;
    this.paidCards.set(paid.referenceId.toLowerCase(), {
      day: paid.createdDate.slice(0, 10),
      referenceId: paid.referenceId,
      transactionId: String(paid.transactionId ?? paid.id ?? ""),
      amount: paid.amount,
      currency: paid.currency,
      maskedCard: card?.cardNumber,
    });
  }

  /**
   * One line of the cassette: which check sent what (credentials already masked), what came back (its
   * status, and the shape of a JSON answer: its keys and types, never a value), for `payspec-verify replay`.
   */
  #record(
    check: string,
    api: ApiName,
    request: RecordedExchange["request"] | undefined,
    answer: RecordedExchange | string,
  ) {
    if (!this.options.recordFile || !request) return;
    const answered = typeof answer === "string" ? answer : answer.status;
    const shape = typeof answer === "string" || answer.body === undefined ? {} : { shape: shapeOf(answer.body) };
    appendFileSync(this.options.recordFile, `${JSON.stringify({ check, api, ...request, answered, ...shape })}\n`);
  }

  /**
   * The --auth credentials an operation's security asks for: the first requirement whose every scheme
   * was given, applied as each scheme says (a header, a query parameter, a cookie, a bearer token).
   * `asVariables` writes each value as the `$VARIABLE` the rerun line reads instead (for curl lines).
   */
  #schemeCredentials(
    method: string,
    path: string,
    asVariables = false,
  ): { headers: Record<string, string>; query: [string, string][]; user?: string } {
    type Scheme = { type?: string; in?: string; name?: string; scheme?: string };
    const spec = this.api("openapi").spec as {
      security?: Record<string, unknown>[];
      components?: { securitySchemes?: Record<string, Scheme> };
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const found = this.api("openapi").checker.operationFor(method, path.split("?")[0] ?? "");
    const node = found ? spec.paths[found.template]?.[method.toLowerCase()] : undefined;
    const requirements = node?.security ?? spec.security ?? [];
    const keys = credentialKeysFor(this.options.auth ?? {}, found);
    const usable = requirements.find((r) => Object.keys(r).length > 0 && Object.keys(r).every((name) => name in keys));
    const headers: Record<string, string> = {};
    const query: [string, string][] = [];
    let user: string | undefined;
    for (const name of Object.keys(usable ?? {})) {
      const key = keys[name] as string;
      const given = this.options.auth?.[key] as string;
      const value = asVariables ? `$${variableFor(key)}` : given;
      const scheme = spec.components?.securitySchemes?.[name] ?? {};
      if (scheme.type === "apiKey" && scheme.in === "query") query.push([String(scheme.name), value]);
      else if (scheme.type === "apiKey" && scheme.in === "cookie") headers.cookie = `${scheme.name}=${value}`;
      else if (scheme.type === "apiKey") headers[String(scheme.name).toLowerCase()] = value;
      else if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic") {
        if (asVariables && !/^basic /i.test(given)) user = value;
        else headers.authorization = /^basic /i.test(given) || asVariables ? value : basicAuthorization(value);
      } else {
        headers.authorization = /^\w+ /.test(given) ? value : `Bearer ${value}`;
      }
    }
    return { headers, query, ...(user ? { user } : {}) };
  }

  /** How a reproduction of a request writes the run's own credentials: the variables its rerun line reads. */
  placeholders(api: ApiName, request: SentRequest): CredentialPlaceholders {
    if (api !== "openapi") return { headers: {}, query: {} };
    const headers: Record<string, string> = {};
    for (const name of Object.keys(this.options.headers ?? {})) headers[name] = `$${variableFor(name)}`;
    const schemes = this.options.auth
      ? this.#schemeCredentials(request.method, request.path, true)
      : { headers: {}, query: [] as [string, string][] };
    return {
      headers: { ...headers, ...schemes.headers },
      query: Object.fromEntries(schemes.query),
      ...("user" in schemes && schemes.user ? { user: schemes.user } : {}),
    };
  }

  /** A curl line that sends the request again, credentials as the rerun line's variables. */
  reproduce(api: ApiName, request: SentRequest, baseUrl = this.api(api).baseUrl): string {
    return curlFor(request, baseUrl, api, this.placeholders(api, request));
  }

  /** A sandbox clock the run moved, so that the run can put it back. */
  #noteClockMove(api: ApiName, request: RequestSpec, reply: RecordedExchange): void {
    if (reply.status !== 200 || request.path !== "/_sandbox/clock/advance") return;
    const seconds = (request.json as { seconds?: unknown } | undefined)?.seconds;
    if (typeof seconds !== "number") return;
    const scope = api === "gateway" ? "gateway" : "workspace";
    this.clockMoves.set(scope, (this.clockMoves.get(scope) ?? 0) + seconds);
  }

  /**
   * Puts back every sandbox clock the run moved, by exactly what it moved (other tests' moves stay):
   * a verification leaves the workspace's and the gateway's time as it found them.
   */
  async restoreClocks(): Promise<string[]> {
    const problems: string[] = [];
    for (const [scope, seconds] of this.clockMoves) {
      try {
        if (scope === "gateway") this.dropToken();
        const token = scope === "gateway" ? await this.token() : undefined;
        await this.control("/clock/rewind", { seconds }, token);
        this.clockMoves.delete(scope);
      } catch (error) {
        problems.push(`the ${scope} clock could not be put back ${seconds} s: ${(error as Error).message}`);
      }
    }
    return problems;
  }

  /** The sensitive-data rules (card data, credentials), on every exchange whatever check made it. */
  #scanForSensitiveData(reply: RecordedExchange, check: string, api: ApiName): void {
    const textual = !reply.contentType || /json|text|xml|html/.test(reply.contentType);
    const text = textual ? reply.bytes.toString("utf8") : "";
    this.exchangesScanned++;
    const findings = cardDataFindings(
      { text, json: reply.body, headers: reply.headers },
      this.sentCardData,
      // Any other API's numbers (timestamps, ids) pass Luhn one time in ten: only card-like places count there.
      api === "openapi" ? "card-context" : "anywhere",
    );
    const baseUrl = this.api(api).baseUrl;
    if (findings.length > 0) this.cardDataLeaks.push({ check, api, baseUrl, exchange: reply, findings });
    const where = this.secrets.echoesIn(textual ? text : reply.bytes.toString("latin1"), reply.headers);
    if (where.length > 0 && !this.#echoIsDeclared(api, reply, where))
      this.credentialEchoes.push({ check, api, baseUrl, exchange: reply, where });
  }

  /**
   * A credential in the body of a 2xx, under properties the operation's response declares by name (a
   * token-listing operation's `secret`), is what the operation is for, not a leak. In a header, an
   * error, or a field the spec does not declare, it still is.
   */
  #echoIsDeclared(api: ApiName, reply: RecordedExchange, where: readonly string[]): boolean {
    if (api !== "openapi" || reply.status < 200 || reply.status >= 300) return false;
    if (where.length !== 1 || where[0] !== "the body" || reply.body === undefined) return false;
    const fields = this.secrets.echoFieldsIn(reply.body);
    if (fields.length === 0 || fields.includes("")) return false;
    const found = this.api("openapi").checker.operationFor(
      reply.request.method,
      reply.request.path.split("?")[0] ?? "",
    );
    if (!found) return false;
    const spec = this.api("openapi").spec as { paths: Record<string, Record<string, { responses?: unknown }>> };
    const declared = propertyNames(spec, spec.paths[found.template]?.[found.method.toLowerCase()]?.responses);
    return fields.every((field) => declared.has(field));
  }

  /** A gateway access token, from one login per run. */
  token(): Promise<string> {
    this.#token ??= (async () => {
      const reply = await exchange(
        this.api("gateway").baseUrl,
        {
          method: "POST",
          path: "/auth/login",
          headers: { authorization: this.basicCredentials(), "content-type": "application/json" },
        },
        this.options.timeoutMs,
        this.secrets,
      );
      const token = (reply.body as { accessToken?: unknown } | undefined)?.accessToken;
      if (reply.status === 401) throw new SetupFailed("login answered 401: check --gateway-key and --gateway-secret");
      if (reply.status !== 200) throw new SetupFailed(`login answered ${reply.status}, not 200 with an accessToken`);
      if (typeof token !== "string") throw new SetupFailed("login answered 200 without an accessToken");
      return token;
    })();
    return this.#token;
  }

  /** Forgets the cached token (after the sandbox clock made it expire). */
  dropToken(): void {
    this.#token = undefined;
  }

  /** The workspace's accounts, to build payments a real provider will accept; why not, when it has none. */
  accounts(): Promise<{ readonly list: readonly AccountRef[]; readonly problem?: string }> {
    this.#accounts ??= (async () => {
      const reply = await this.send("payments", { method: "GET", path: "/v1/accounts" });
      if (reply.status !== 200) return { list: [], problem: `GET /v1/accounts answered ${reply.status}` };
      if (!Array.isArray(reply.body)) return { list: [], problem: "GET /v1/accounts answered 200 without a list" };
      return { list: reply.body as AccountRef[] };
    })();
    return this.#accounts;
  }

  /** Two different accounts of one currency, or none when the provider has no such pair. */
  async accountPair(): Promise<AccountPair | undefined> {
    const { list } = await this.accounts();
    for (const a of list) {
      const b = list.find((x) => x.currency === a.currency && x.id !== a.id);
      if (b && typeof a.id === "string" && typeof b.id === "string")
        return { from: a.id, to: b.id, currency: a.currency };
    }
    return undefined;
  }

  /** The account pair a scenario pays between; the provider failed its setup when there is none. */
  async requireAccountPair(): Promise<AccountPair> {
    const pair = await this.accountPair();
    if (pair) return pair;
    const { problem } = await this.accounts();
    throw new SetupFailed(
      problem ??
        "the workspace has no two accounts of one currency to pay between: use the --api-key of a workspace that has",
    );
  }

  /**
   * POSTs to the sandbox control API (sandbox profile only). It authenticates like the API it
   * controls: the run's API key acts on its workspace; a gateway access token acts on the gateway.
   */
  async control(path: string, body: unknown = {}, gatewayToken?: string): Promise<RecordedExchange> {
    const api = gatewayToken ? "gateway" : "payments";
    const authorization = `Bearer ${gatewayToken ?? this.options.apiKey}`;
    const reply = await exchange(
      this.api(api).baseUrl,
      { method: "POST", path: `/_sandbox${path}`, json: body, headers: { authorization } },
      this.options.timeoutMs,
      this.secrets,
    );
    if (reply.status !== 200)
      throw new SetupFailed(
        `sandbox control ${path} answered ${reply.status}; is the target a payspec sandbox with PAYSPEC_SANDBOX_CONTROL on, and are the credentials right?`,
      );
    this.#noteClockMove(api, { method: "POST", path: `/_sandbox${path}`, json: body }, reply);
    return reply;
  }
}

/** Every property name a part of a spec declares, following local $refs (each once). */
function propertyNames(spec: object, node: unknown, into = new Set<string>(), seen = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) propertyNames(spec, item, into, seen);
  else if (typeof node === "object" && node !== null) {
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/") && !seen.has(ref)) {
      seen.add(ref);
      let target: unknown = spec;
      for (const part of ref.slice(2).split("/"))
        target = (target as Record<string, unknown> | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
      propertyNames(spec, target, into, seen);
    }
    const properties = (node as { properties?: unknown }).properties;
    if (typeof properties === "object" && properties !== null)
      for (const name of Object.keys(properties)) into.add(name);
    for (const value of Object.values(node)) propertyNames(spec, value, into, seen);
  }
  return into;
}
