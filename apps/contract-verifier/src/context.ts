import { seededRandom } from "@payspec/server-kit";
import {
  cardGatewaySpec,
  createResponseChecker,
  createSpecValidator,
  paymentsAccountsSpec,
  type ResponseChecker,
  type SpecValidator,
} from "@payspec/specs";
import { SetupFailed } from "./check.js";
import { CoverageRecorder } from "./coverage.js";
import { exchange, type RecordedExchange, type RequestSpec } from "./exchange.js";
import type { ApiName, VerifyOptions } from "./options.js";
import { RunSecrets } from "./secrets.js";
import { seededUuid } from "./seeded-uuid.js";
import { cardDataFindings, cardDataIn } from "./sensitive-data.js";

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

export interface SendOptions extends RequestSpec {
  /** Credentials: the run's own (default), none, or a given Authorization header. */
  readonly auth?: Authentication;
}

/**
 * What every check shares for one run: where the APIs are, their specs, credentials, the seeded
 * random source, and a few things worth fetching once (the gateway token, the workspace's accounts).
 */
export class VerifyContext {
  readonly random: () => number;
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
  /** Which declared statuses and constraints the run exercised. */
  readonly coverage = new CoverageRecorder();
  /** How many responses the sensitive-data rule has read. */
  exchangesScanned = 0;

  /** `anySpec`: the document of an --spec run, already loaded. */
  constructor(
    readonly options: VerifyOptions,
    anySpec?: object,
  ) {
    this.random = seededRandom(options.seed);
    if (options.openapiUrl && anySpec) {
      this.apis.openapi = {
        name: "openapi",
        baseUrl: options.openapiUrl,
        spec: anySpec,
        checker: createResponseChecker(anySpec),
        validator: createSpecValidator(anySpec),
      };
    }
    if (options.paymentsUrl) {
      this.apis.payments = {
        name: "payments",
        baseUrl: options.paymentsUrl,
        spec: paymentsAccountsSpec,
        checker: createResponseChecker(paymentsAccountsSpec),
        validator: createSpecValidator(paymentsAccountsSpec),
      };
    }
    if (options.gatewayUrl) {
      this.apis.gateway = {
        name: "gateway",
        baseUrl: options.gatewayUrl,
        spec: cardGatewaySpec,
        checker: createResponseChecker(cardGatewaySpec),
        validator: createSpecValidator(cardGatewaySpec),
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

  api(name: ApiName): ApiHandle {
    const handle = this.apis[name];
    if (!handle) throw new Error(`No URL for the ${name} API.`);
    return handle;
  }

  uuid(): string {
    return seededUuid(this.random);
  }

  basicCredentials(key = this.options.gatewayKey, secret = this.options.gatewaySecret): string {
    return `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;
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
    cardDataIn(request.json, this.sentCardData);
    const reply = await exchange(this.api(api).baseUrl, { ...request, headers }, this.options.timeoutMs, this.secrets);
    this.#scanForSensitiveData(reply, check, api);
    this.#noteClockMove(api, request, reply);
    this.answers.push({ check, status: reply.status });
    this.coverage.answered(api, request.method, request.path.split("?")[0] ?? "", reply.status);
    return reply;
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
    if (where.length > 0) this.credentialEchoes.push({ check, api, baseUrl, exchange: reply, where });
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
