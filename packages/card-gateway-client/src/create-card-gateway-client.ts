import { routes, zAccessToken } from "@payspec/card-gateway-zod";
import {
  type ApiErrorFactory,
  apiErrorFromResponse,
  type CallOptions,
  callInit,
  checkResponse,
  type FetchLike,
  isIdempotent,
  type RetryOptions,
  requireCredential,
  resilientFetch,
  resolveValidation,
  retryPolicy,
  specMiddleware,
  type ValidationOptions,
  type WithResponse,
  withResponse,
  withTypedError,
  withTypedErrors,
} from "@payspec/client-core";
import createClient, { type Client } from "openapi-fetch";
import { CardGatewayApiError, type CardGatewayErrorCode } from "./errors.js";
import { parseDailyReport } from "./lazy-daily-report.js";
import { TokenSession } from "./token-session.js";
import type {
  AccessToken,
  CardPaymentRequest,
  CardPaymentResponse,
  DailyTransactionsReportRow,
  PaymentLookupResponse,
  paths,
} from "./types.js";

const LOGIN_PATH = "/auth/login";
const CARD_PAYMENT_PATH = "/api/v1/payments/card";

export interface CardGatewayClientOptions {
  /** The gateway host (`{gateway_host}`): login is at <host>/auth/login, the rest under <host>/api/v1. */
  readonly host: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly fetch?: FetchLike;
  /** `true`/`false` switches request and response validation together, or set each. Default: requests only. */
  readonly validate?: boolean | ValidationOptions;
  /** Retries of safe requests (GETs, login, never-sent connections). `false` turns them off. */
  readonly retry?: RetryOptions | false;
  /** Per-attempt timeout in ms. Default 30000. */
  readonly timeoutMs?: number;
  /**
   * Also retry card payments after a timeout or a 5xx. Off by default: it is safe only when the
   * provider deduplicates `referenceId` (the payspec sandbox and spec do: an identical retry replays
   * the original payment). Keep the same referenceId for the retry; never generate a new one.
   */
  readonly retryCardPayments?: boolean;
}

export interface CardGatewayClient {
  /** The openapi-fetch client, typed by path and method, with login handled. Every non-2xx throws ApiError. */
  readonly raw: Client<paths>;
  /** Logs in now (normally done on first use) and returns the token. */
  login(): Promise<string>;
  /** Every method takes per-call options last (`{ signal, timeoutMs, headers }`); answers carry `lastResponse`. */
  pay(request: CardPaymentRequest, options?: CallOptions): Promise<WithResponse<CardPaymentResponse>>;
  getPaymentByReference(referenceId: string, options?: CallOptions): Promise<WithResponse<PaymentLookupResponse>>;
  /** The day's successful transactions as .xlsx bytes. `date` is yyyy-MM-dd. */
  downloadDailyReport(date: string, options?: CallOptions): Promise<WithResponse<Uint8Array>>;
  /** Downloads and parses the day's report into typed rows. */
  dailyReport(date: string, options?: CallOptions): Promise<DailyTransactionsReportRow[]>;
}

const gatewayError: ApiErrorFactory = (operation, status, code, ...rest) =>
  new CardGatewayApiError(operation, status, code as CardGatewayErrorCode | undefined, ...rest);

function withBearer(request: Request, token: string): Request {
  const authorised = new Request(request);
  authorised.headers.set("Authorization", `Bearer ${token}`);
  return authorised;
}

/**
 * A typed client for the card payment gateway. It logs in with Basic on first use, caches the token,
 * sends it as Bearer, and on a 401 logs in again once and repeats the call (the 401 proves the call
 * was not processed, so repeating it is safe, card payments included).
 */
export function createCardGatewayClient(options: CardGatewayClientOptions): CardGatewayClient {
  requireCredential("apiKey", options.apiKey, "the merchant's API key, the Basic login's user name");
  requireCredential("apiSecret", options.apiSecret, "the merchant's API secret, the Basic login's password");
  const host = options.host.replace(/\/+$/, "");
  const validate = resolveValidation(options.validate);
  const pathOf = (request: Request) => new URL(request.url).pathname;
  const transport = resilientFetch({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    retry: retryPolicy(options.retry),
    timeoutMs: options.timeoutMs ?? 30_000,
    mayRepeat: (request) =>
      isIdempotent(request.method) ||
      pathOf(request) === LOGIN_PATH ||
      (options.retryCardPayments === true && pathOf(request) === CARD_PAYMENT_PATH),
  });

  const basic = Buffer.from(`${options.apiKey}:${options.apiSecret}`, "utf8").toString("base64");
  const session = new TokenSession(async (): Promise<AccessToken> => {
    const response = await transport(
      new Request(`${host}${LOGIN_PATH}`, {
        method: "POST",
        headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/json" },
      }),
    );
    if (!response.ok) throw await apiErrorFromResponse(`POST ${LOGIN_PATH}`, response, gatewayError);
    const body = await withTypedError(`POST ${LOGIN_PATH}`, () => response.json());
    return validate.responses
      ? checkResponse<AccessToken>(`POST ${LOGIN_PATH}`, zAccessToken, body)
      : (body as AccessToken);
  });

  const authenticatedFetch: FetchLike = async (request) => {
    if (pathOf(request) === LOGIN_PATH) return transport(request);
    const retryCopy = request.clone();
    const token = await session.token();
    const response = await transport(withBearer(request, token));
    if (response.status !== 401) return response;
    await response.body?.cancel();
    session.invalidate(token);
    return transport(withBearer(retryCopy, await session.token()));
  };

  const client = createClient<paths>({ baseUrl: host, fetch: authenticatedFetch });
  client.use(specMiddleware(routes, validate, gatewayError));
  const raw = withTypedErrors(client);

  const downloadDailyReport = async (date: string, call?: CallOptions) => {
    const { data, response } = await raw.GET("/api/v1/general/reports/sales/daily-transactions", {
      params: { query: { date } },
      parseAs: "arrayBuffer",
      ...callInit(call),
    });
    return withResponse(new Uint8Array(data as ArrayBuffer), response);
  };

  return {
    raw,
    pay: async (request, call) => {
      const { data, response } = await raw.POST(CARD_PAYMENT_PATH, { body: request, ...callInit(call) });
      return withResponse(data as CardPaymentResponse, response);
    },
    getPaymentByReference: async (referenceId, call) => {
      const { data, response } = await raw.GET("/api/v1/payments/reference/{referenceId}", {
        params: { path: { referenceId } },
        ...callInit(call),
      });
      return withResponse(data as PaymentLookupResponse, response);
    },
    downloadDailyReport,
    dailyReport: async (date, call) => parseDailyReport(await downloadDailyReport(date, call)),
    login: () => withTypedError(`POST ${LOGIN_PATH}`, () => session.token()),
  };
}
