import { cardGatewaySpec, createResponseChecker, paymentsAccountsSpec } from "@payspec/specs";
import {
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "../../src/index.js";
import { storeOptions } from "./test-stores.js";

export interface CallOptions {
  /** Payments API key (Bearer). */
  readonly key?: string;
  /** Gateway access token (Bearer). */
  readonly token?: string;
  readonly headers?: Record<string, string>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as is (for malformed bodies). */
  readonly raw?: string;
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly bytes: Buffer;
}

const checkers = {
  payments: createResponseChecker(paymentsAccountsSpec),
  gateway: createResponseChecker(cardGatewaySpec),
};

/**
 * A running sandbox plus a `call` that talks real HTTP to it and checks every answer of the public
 * APIs against the spec (status declared, content type, headers, body schema). Tests assert
 * `problems` is empty after each case: a response that breaks the spec is a bug.
 */
export async function harness(options: SandboxOptions = {}) {
  const sandbox: RunningSandbox = await startSandbox({ ...(await storeOptions()), ...options });
  const problems: string[] = [];

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const response = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const bytes = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get("content-type");
    const parsed = contentType?.includes("json") && bytes.length > 0 ? JSON.parse(bytes.toString("utf8")) : undefined;
    const bare = path.split("?")[0] ?? path;
    if (!bare.startsWith("/_sandbox/")) {
      const checker = bare.startsWith("/api/") || bare.startsWith("/auth/") ? checkers.gateway : checkers.payments;
      if (checker.operationFor(method, bare)) {
        problems.push(
          ...checker.check({
            method,
            path: bare,
            status: response.status,
            contentType,
            headers: Object.fromEntries(response.headers),
            body: parsed,
          }),
        );
      }
    }
    return { status: response.status, headers: response.headers, body: parsed, bytes };
  }

  async function login(): Promise<string> {
    const basic = Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64");
    const reply = await call("POST", "/auth/login", {
      headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
    });
    return reply.body.accessToken;
  }

  /** A /_sandbox control call, authenticated as the workspace of `credential` (an API key) or the gateway (a token). */
  async function control(path: string, json: unknown = {}, credential: string = KEY): Promise<Reply> {
    return call("POST", `/_sandbox${path}`, { json, headers: { authorization: `Bearer ${credential}` } });
  }

  async function accounts(key: string = KEY) {
    return (await call("GET", "/v1/accounts", { key })).body as {
      id: string;
      name: string;
      currency: string;
      balance: number;
    }[];
  }

  return { sandbox, url: sandbox.url, call, control, problems, login, accounts, close: () => sandbox.close() };
}

export type Harness = Awaited<ReturnType<typeof harness>>;

export const KEY = DEMO_API_KEYS[0];
export const OTHER_KEY = DEMO_API_KEYS[1];

/** A valid card payment request, with overrides. */
export function cardPayment(overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    referenceId: crypto.randomUUID(),
    amount: 100.5,
    finalAmount: 100.5,
    walletAmount: 0,
    clientIpAddress: "85.105.34.12",
    currency: "TRY",
    card: {
      cardHolderName: "Ayşe Yılmaz",
      cardNumber: "5528790000000008",
      expireYear: "29",
      expireMonth: "07",
      cvc: "123",
      ...card,
    },
    products: [{ name: "Kulaklık", price: 100.5 }],
    ...overrides,
  };
}
