import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET, startSandbox } from "@payspec/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CardGatewayApiError,
  type CardGatewayClient,
  type CardPaymentRequest,
  ConfigurationError,
  createCardGatewayClient,
  PayspecError,
  ProtocolError,
} from "../src/index.js";
import { cardRequest } from "./support/card-request.js";

const suite = proxiedDuringSuite(() => startSandbox({ tokenTtlSeconds: 20 }), { beforeAll, afterAll, beforeEach });

const client = (): CardGatewayClient =>
  createCardGatewayClient({
    host: suite.proxy.url,
    apiKey: DEMO_GATEWAY_KEY,
    apiSecret: DEMO_GATEWAY_SECRET,
    retry: { baseDelayMs: 1 },
    validate: true,
  });

const request = cardRequest;

describe("tokens", () => {
  it("reuses a 20 s token across calls instead of logging in for each", async () => {
    const gateway = client();
    for (let i = 0; i < 5; i++) await gateway.pay(request());
    expect(suite.proxy.seen.filter((r) => r.url === "/auth/login")).toHaveLength(1);
  });
});

describe("errors", () => {
  it("refuses an empty key or secret when the client is made, naming which, before any login", () => {
    for (const [apiKey, apiSecret, option] of [
      ["", DEMO_GATEWAY_SECRET, "apiKey"],
      [DEMO_GATEWAY_KEY, " ", "apiSecret"],
    ] as const) {
      const made = () => createCardGatewayClient({ host: suite.proxy.url, apiKey, apiSecret });
      expect(made).toThrow(ConfigurationError);
      expect(made).toThrow(new RegExp(`^${option} is empty: pass the merchant's`));
    }
    expect(suite.proxy.seen).toHaveLength(0);
  });

  it("types ApiError.code as the gateway's codes and carries the request id", async () => {
    const gateway = client();
    const referenceId = crypto.randomUUID();
    await gateway.pay(request({ referenceId }));
    const error = await gateway.pay(request({ referenceId, amount: 11, finalAmount: 11 })).catch((e) => e);
    expect(error).toBeInstanceOf(CardGatewayApiError);
    if (!(error instanceof CardGatewayApiError)) return;
    const code: 6002 | undefined = error.code === 6002 ? error.code : undefined;
    expect(code).toBe(6002);
    expect(error.requestId).toMatch(/^req_/);
  });

  it("turns a corrupt login answer into a ProtocolError", async () => {
    suite.proxy.inject({
      when: (r) => r.url === "/auth/login",
      fault: { kind: "replaceBytes", replace: () => Buffer.from("{not json") },
      times: 1,
    });
    const error = await client()
      .pay(request())
      .catch((e) => e);
    expect(error).toBeInstanceOf(PayspecError);
    expect(error).toBeInstanceOf(ProtocolError);
  });
});

describe("parseDailyReport reads every report the sandbox can produce", () => {
  it("parses a day of varied payments, one row per successful payment, cards masked", async () => {
    const gateway = client();
    const variants: CardPaymentRequest[] = [
      request(),
      request({ amount: 999_999_999.99, finalAmount: 999_999_999.99, installment: 36 }),
      request({ amount: 0.01, finalAmount: 0.01, currency: "EUR" }),
      request({ currency: "USD", reward: { cardRewardAmount: 1.5, firmRewardAmount: null } }),
      request({}, { cardHolderName: 'Çağrı Öztürk 😀 "quoted" <tag> & co', cardNumber: "4543590000000006" }),
      request({}, { cardHolderName: "=SUM(A1:A2)", cardNumber: "9792030000000000" }),
      request({}, { cardNumber: "1234567890123" }),
      request({}, { cardNumber: "1234567890123456789" }),
      request({ transactionType: "PREAUTH", correlationId: "c-1", additionalParams: { a: "b" } }),
    ];
    const references = [];
    for (const v of variants) references.push((await gateway.pay(v)).response.referenceId);
    await gateway.pay(request({}, { cardNumber: "4157920000000002" })); // declined: not in the report
    const date = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Istanbul" }).format(new Date());
    const rows = await gateway.dailyReport(date);
    expect(rows.map((r) => r.referenceId).sort()).toEqual(references.sort());
    for (const row of rows) {
      expect(row.cardNumber).toMatch(/^\d{6}\*+\d{4}$/);
      expect(row.commission).toBeLessThanOrEqual(row.amount);
    }
    expect(rows.find((r) => r.cardHolderName.startsWith("Çağrı"))?.cardHolderName).toBe(
      'Çağrı Öztürk 😀 "quoted" <tag> & co',
    );
  });
});
