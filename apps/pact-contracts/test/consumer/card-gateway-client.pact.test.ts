import { fileURLToPath } from "node:url";
import { MatchersV3, PactV4 } from "@pact-foundation/pact";
import { ApiError, type CardPaymentRequest, createCardGatewayClient } from "@payspec/card-gateway-client";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET } from "@payspec/sandbox";
import { describe, expect, it } from "vitest";
import { pactsDir } from "../../src/index.js";
import { answeredAndRecorded } from "./answered-and-recorded.js";

/**
 * Retry only a connection that was never made (a mock server still binding its port under a loaded
 * CI machine was seen to refuse the first connection once); no status is retried, so a request Pact
 * received is never sent twice.
 */
const CONNECT_RETRIES_ONLY = { maxRetries: 2, baseDelayMs: 25, retryOnStatuses: [] };

const { eachLike, fromProviderState, integer, like, regex, decimal, nullValue } = MatchersV3;

const pact = new PactV4({
  consumer: "payspec-card-gateway-client",
  provider: "card-gateway-api",
  dir: pactsDir,
  logLevel: "warn",
});
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const reportFixture = fileURLToPath(new URL("../fixtures/daily-transactions.xlsx", import.meta.url));
const basic = `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64")}`;
const TOKEN = "consumer-test-token";
const bearer = { Authorization: `Bearer ${TOKEN}` };
const REFERENCE = "3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04";

/**
 * The login step has a pact of its own; in every other interaction the client's login is answered
 * here with a fixed token, so each interaction tests one call against the Pact mock server.
 */
const loginStub = (request: Request) =>
  new URL(request.url).pathname === "/auth/login"
    ? Promise.resolve(Response.json({ accessToken: TOKEN, expiresIn: 3600 }))
    : fetch(request);

const client = (host: string, options: { validate?: boolean; fetch?: typeof loginStub; apiSecret?: string } = {}) =>
  createCardGatewayClient({
    host,
    apiKey: DEMO_GATEWAY_KEY,
    apiSecret: options.apiSecret ?? DEMO_GATEWAY_SECRET,
    retry: CONNECT_RETRIES_ONLY,
    validate: options.validate ?? true,
    fetch: options.fetch ?? loginStub,
  });

const cardPayment: CardPaymentRequest = {
  referenceId: REFERENCE,
  amount: 1250.5,
  finalAmount: 1250.5,
  walletAmount: 0,
  clientIpAddress: "85.105.34.12",
  currency: "TRY",
  card: {
    cardHolderName: "Ayşe Yılmaz",
    cardNumber: "5528790000000008",
    expireYear: "29",
    expireMonth: "07",
    cvc: "123",
  },
  products: [{ name: "Kablosuz Kulaklık", price: 1250.5 }],
};

const product = {
  id: regex(/^[0-9a-f-]{36}$/, "a41d8c2e-93f7-4b6a-b0e5-1c7d2f9e8a36"),
  name: like("Kablosuz Kulaklık"),
  externalId: nullValue(),
  price: decimal(1250.5),
  status: like("PENDING"),
  commissionRate: decimal(2.49),
};
const masked = regex(/^\d{6}\*{3,9}\d{4}$/, "552879******0008");
const uuid = (example: string) => regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, example);

describe("card-gateway-api, as the gateway client uses it", () => {
  it("logs in with Basic and gets an access token", async () => {
    await pact
      .addInteraction()
      .uponReceiving("a login with the API key and secret")
      .withRequest("POST", "/auth/login", (b) => b.headers({ Authorization: basic }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ accessToken: like("eyJhbGciOiJIUzI1NiJ9.token"), expiresIn: integer(3600) }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect(await client(server.url, { fetch: (r) => fetch(r) }).login()).toBe("eyJhbGciOiJIUzI1NiJ9.token");
        }),
      );
  });

  it("gets 401 for a wrong secret", async () => {
    await pact
      .addInteraction()
      .uponReceiving("a login with a wrong secret")
      .withRequest("POST", "/auth/login", (b) =>
        b.headers({ Authorization: `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:wrong`).toString("base64")}` }),
      )
      .willRespondWith(401, (b) => b.jsonBody({ code: 1001, message: like("The API key or secret is wrong.") }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          const failure = await client(server.url, { fetch: (r) => fetch(r), apiSecret: "wrong" })
            .login()
            .catch((e) => e);
          expect(failure).toBeInstanceOf(ApiError);
          expect(failure).toMatchObject({ status: 401, code: 1001 });
        }),
      );
  });

  it("pays with a card and sees it masked", async () => {
    await pact
      .addInteraction()
      .given("the gateway accepts payments")
      .uponReceiving("a card payment with a success test card")
      .withRequest("POST", "/api/v1/payments/card", (b) =>
        b.headers({ ...bearer, "Content-Type": "application/json" }).jsonBody(cardPayment),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          message: like("Payment successful"),
          response: {
            id: uuid("7c2e1f40-5a9b-4d3c-8e21-6f0a9b3c2d11"),
            transactionId: uuid("7c2e1f40-5a9b-4d3c-8e21-6f0a9b3c2d11"),
            createdDate: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "2026-11-21 14:32:05"),
            amount: decimal(1250.5),
            finalAmount: decimal(1250.5),
            walletAmount: integer(0),
            currency: "TRY",
            installment: 1,
            correlationId: nullValue(),
            referenceId: REFERENCE,
            usedTerminalInfo: like("GARANTI-VPOS-01"),
            reward: nullValue(),
            source: like("API"),
            paymentStatus: "SUCCESS",
            transactionType: "AUTH",
            authCode: regex(/^\d{6}$/, "482913"),
            hostReferenceNo: regex(/^\d{12}$/, "632514789012"),
            orderId: like("ORD-20261121-000041"),
            bankCardHolderName: like("AYSE YILMAZ"),
            bankCode: like("0062"),
            cardDetails: {
              cardHolderName: "Ayşe Yılmaz",
              cardNumber: masked,
              cardBrand: like("BONUS"),
              cardBank: like("Garanti BBVA"),
              cardSchema: like("MASTERCARD"),
            },
            products: eachLike(product),
            riskAssessment: like("APPROVED"),
          },
        }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          const paid = await client(server.url).pay(cardPayment);
          expect(paid.response.cardDetails.cardNumber).toBe("552879******0008");
        }),
      );
  });

  it("gets 400/6001 for an invalid card", async () => {
    const invalid = { ...cardPayment, card: { ...cardPayment.card, cvc: "12" } };
    await pact
      .addInteraction()
      .given("the gateway accepts payments")
      .uponReceiving("a card payment with a two-digit cvc")
      .withRequest("POST", "/api/v1/payments/card", (b) =>
        b.headers({ ...bearer, "Content-Type": "application/json" }).jsonBody(invalid),
      )
      .willRespondWith(400, (b) =>
        b.jsonBody({
          code: 6001,
          message: regex(/^card\.cvc: .*$/, "card.cvc: Invalid string: must match pattern /^[0-9]{3,4}$/"),
        }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          await expect(client(server.url, { validate: false }).pay(invalid)).rejects.toMatchObject({
            status: 400,
            code: 6001,
          });
        }),
      );
  });

  it("looks a payment up by its reference", async () => {
    await pact
      .addInteraction()
      .given("a card payment exists with referenceId {referenceId}", { referenceId: REFERENCE })
      .uponReceiving("a lookup by that reference")
      .withRequest("GET", `/api/v1/payments/reference/${REFERENCE}`, (b) => b.headers(bearer))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          message: like("Payment found"),
          response: {
            id: uuid("7c2e1f40-5a9b-4d3c-8e21-6f0a9b3c2d11"),
            amount: decimal(1250.5),
            finalAmount: decimal(1250.5),
            currency: "TRY",
            installment: 1,
            referenceId: REFERENCE,
            paymentType: like("CARD"),
            source: like("API"),
            paymentStatus: "SUCCESS",
            transactionType: "AUTH",
            authCode: regex(/^\d{6}$/, "482913"),
            orderId: like("ORD-20261121-000041"),
            products: eachLike(product),
            cardDetails: { cardNumber: masked, cardHolderName: "Ayşe Yılmaz" },
          },
        }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await client(server.url).getPaymentByReference(REFERENCE)).response.referenceId).toBe(REFERENCE);
        }),
      );
  });

  it("gets 404 for an unknown reference", async () => {
    await pact
      .addInteraction()
      .given("the gateway accepts payments")
      .uponReceiving("a lookup by an unknown reference")
      .withRequest("GET", "/api/v1/payments/reference/9d2b7e14-3a6c-4f81-b5d0-8c1e2a7f3b66", (b) => b.headers(bearer))
      .willRespondWith(404, (b) =>
        b.jsonBody({ code: 4004, message: like("No payment with referenceId 9d2b7e14-3a6c-4f81-b5d0-8c1e2a7f3b66.") }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          await expect(
            client(server.url).getPaymentByReference("9d2b7e14-3a6c-4f81-b5d0-8c1e2a7f3b66"),
          ).rejects.toMatchObject({ status: 404, code: 4004 });
        }),
      );
  });

  it("downloads the day's report as an .xlsx", async () => {
    await pact
      .addInteraction()
      .given("a card payment exists today")
      .uponReceiving("a request for today's transactions report")
      .withRequest("GET", "/api/v1/general/reports/sales/daily-transactions", (b) =>
        b.headers(bearer).query({ date: fromProviderState("${date}", "2026-11-21") as never }),
      )
      // An .xlsx is a zip container: Pact's content sniffing sees application/zip, so the body is
      // matched as a zip while the Content-Type header must be the xlsx media type.
      .willRespondWith(200, (b) => b.binaryFile("application/zip", reportFixture).headers({ "Content-Type": XLSX }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          const rows = await client(server.url).dailyReport("2026-11-21");
          expect(rows[0]?.cardNumber).toBe("552879******0008");
        }),
      );
  });
});
