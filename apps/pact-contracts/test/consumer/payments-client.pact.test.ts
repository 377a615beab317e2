import { MatchersV3, PactV4 } from "@pact-foundation/pact";
import { ApiError, createPaymentsClient } from "@payspec/payments-client";
import { DEMO_API_KEYS, seedWorkspace } from "@payspec/sandbox";
import { describe, expect, it } from "vitest";
import { pactsDir } from "../../src/index.js";
import { answeredAndRecorded } from "./answered-and-recorded.js";

/**
 * Retry only a connection that was never made (a mock server still binding its port under a loaded
 * CI machine was seen to refuse the first connection once); no status is retried, so a request Pact
 * received is never sent twice.
 */
const CONNECT_RETRIES_ONLY = { maxRetries: 2, baseDelayMs: 25, retryOnStatuses: [] };

const { eachLike, fromProviderState, integer, like, regex, number, boolean } = MatchersV3;

const pact = new PactV4({
  consumer: "payspec-payments-client",
  provider: "payments-accounts-api",
  dir: pactsDir,
  logLevel: "warn",
});
const KEY = DEMO_API_KEYS[0];
const auth = { Authorization: `Bearer ${KEY}` };
const [tryA, tryB] = seedWorkspace(KEY)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

const client = (baseUrl: string, options: { apiKey?: string; validate?: boolean } = {}) =>
  createPaymentsClient({
    baseUrl,
    apiKey: options.apiKey ?? KEY,
    retry: CONNECT_RETRIES_ONLY,
    validate: options.validate ?? true,
  });

const newPayment = {
  amount: 150075,
  currency: "TRY",
  method: "bank_transfer" as const,
  from_account: tryA,
  to_account: tryB,
  reference: "FTR-2026-000123",
};

const payment = (
  status: string,
  id: ReturnType<typeof regex> | ReturnType<typeof fromProviderState> = regex(/^pay_[A-Za-z0-9]+$/, "pay_7Hk2mQ9xR4tZ"),
) => ({
  id,
  amount: integer(150075),
  currency: regex(/^[A-Z]{3}$/, "TRY"),
  method: regex(/^(bank_transfer|card|virtual_account|eft)$/, "bank_transfer"),
  from_account: regex(/^acc_[A-Za-z0-9]+$/, tryA),
  to_account: regex(/^acc_[A-Za-z0-9]+$/, tryB),
  status,
  created_at: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, "2026-11-21T09:15:02.123Z"),
});

const error = (code: string) => ({ code, message: like("What was wrong, for people.") });

describe("payments-accounts-api, as the payments client uses it", () => {
  it("lists the workspace's accounts", async () => {
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a request for the workspace's accounts")
      .withRequest("GET", "/v1/accounts", (b) => b.headers(auth))
      .willRespondWith(200, (b) =>
        b.headers({ "Content-Type": regex(/^application\/json(;.*)?$/, "application/json") }).jsonBody(
          eachLike({
            id: regex(/^acc_[A-Za-z0-9]+$/, tryA),
            name: like("Ayşe Yılmaz Vadesiz TRY"),
            currency: regex(/^[A-Z]{3}$/, "TRY"),
            balance: number(2500000.5),
          }),
        ),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          const accounts = await client(server.url).listAccounts();
          expect(accounts[0]?.id).toBe(tryA);
        }),
      );
  });

  it("creates a payment, which starts pending", async () => {
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a new TRY payment between two of its accounts")
      .withRequest("POST", "/v1/payments", (b) =>
        b.headers({ ...auth, "Content-Type": "application/json" }).jsonBody(newPayment),
      )
      .willRespondWith(201, (b) =>
        b
          .headers({ Location: regex(/^\/v1\/payments\/pay_[A-Za-z0-9]+$/, "/v1/payments/pay_7Hk2mQ9xR4tZ") })
          .jsonBody({ ...payment("pending"), reference: "FTR-2026-000123" }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await client(server.url).createPayment(newPayment)).status).toBe("pending");
        }),
      );
  });

  it("rejects a payment of amount 0 with 400 invalid_request", async () => {
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a payment with amount 0")
      .withRequest("POST", "/v1/payments", (b) =>
        b.headers({ ...auth, "Content-Type": "application/json" }).jsonBody({ ...newPayment, amount: 0 }),
      )
      .willRespondWith(400, (b) => b.jsonBody({ ...error("invalid_request"), param: "amount" }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          const failure = await client(server.url, { validate: false })
            .createPayment({ ...newPayment, amount: 0 })
            .catch((e) => e);
          expect(failure).toBeInstanceOf(ApiError);
          expect(failure).toMatchObject({ status: 400, code: "invalid_request" });
        }),
      );
  });

  it("reads a payment by id", async () => {
    await pact
      .addInteraction()
      .given("a pending payment exists", { amount: 150075 })
      .uponReceiving("a request for that payment")
      .withRequest("GET", fromProviderState("/v1/payments/${id}", "/v1/payments/pay_7Hk2mQ9xR4tZ"), (b) =>
        b.headers(auth),
      )
      .willRespondWith(200, (b) => b.jsonBody(payment("pending", fromProviderState("${id}", "pay_7Hk2mQ9xR4tZ"))))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await client(server.url).getPayment("pay_7Hk2mQ9xR4tZ")).id).toBe("pay_7Hk2mQ9xR4tZ");
        }),
      );
  });

  it("gets 404 for a payment that does not exist", async () => {
    await pact
      .addInteraction()
      .given("no payment pay_doesnotexist0 exists")
      .uponReceiving("a request for a payment that does not exist")
      .withRequest("GET", "/v1/payments/pay_doesnotexist0", (b) => b.headers(auth))
      .willRespondWith(404, (b) => b.jsonBody(error("not_found")))
      .executeTest(
        answeredAndRecorded(async (server) => {
          await expect(client(server.url).getPayment("pay_doesnotexist0")).rejects.toMatchObject({
            status: 404,
            code: "not_found",
          });
        }),
      );
  });

  it("cancels a pending payment", async () => {
    await pact
      .addInteraction()
      .given("a pending payment exists", { amount: 150075 })
      .uponReceiving("a cancel of that payment")
      .withRequest("DELETE", fromProviderState("/v1/payments/${id}", "/v1/payments/pay_7Hk2mQ9xR4tZ"), (b) =>
        b.headers(auth),
      )
      .willRespondWith(200, (b) => b.jsonBody(payment("cancelled", fromProviderState("${id}", "pay_7Hk2mQ9xR4tZ"))))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await client(server.url).cancelPayment("pay_7Hk2mQ9xR4tZ")).status).toBe("cancelled");
        }),
      );
  });

  it("cannot cancel a settled payment: 409 payment_not_cancellable", async () => {
    await pact
      .addInteraction()
      .given("a settled payment exists", { amount: 150075 })
      .uponReceiving("a cancel of a settled payment")
      .withRequest("DELETE", fromProviderState("/v1/payments/${id}", "/v1/payments/pay_2Lp8nW3vB6yC"), (b) =>
        b.headers(auth),
      )
      .willRespondWith(409, (b) => b.jsonBody(error("payment_not_cancellable")))
      .executeTest(
        answeredAndRecorded(async (server) => {
          await expect(client(server.url).cancelPayment("pay_2Lp8nW3vB6yC")).rejects.toMatchObject({
            status: 409,
            code: "payment_not_cancellable",
          });
        }),
      );
  });

  it("creates a batch, one outcome per entry", async () => {
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a batch of two payments")
      .withRequest("POST", "/v1/payments/batch", (b) =>
        b
          .headers({ ...auth, "Content-Type": "application/json" })
          .jsonBody({ payments: [newPayment, { ...newPayment, amount: 0 }] }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          created: 1,
          failed: 1,
          results: [
            { index: 0, outcome: "created", payment: { ...payment("pending"), reference: "FTR-2026-000123" } },
            { index: 1, outcome: "failed", error: { ...error("invalid_request"), param: "amount" } },
          ],
        }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          const outcomes = await client(server.url, { validate: false }).createMany([
            newPayment,
            { ...newPayment, amount: 0 },
          ]);
          expect(outcomes.map((o) => o.outcome)).toEqual(["created", "failed"]);
        }),
      );
  });

  it("lists payments a page at a time", async () => {
    await pact
      .addInteraction()
      .given("the workspace has 3 payments")
      .uponReceiving("the first page of two payments")
      .withRequest("GET", "/v1/payments", (b) => b.headers(auth).query({ limit: "2" }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike(payment("pending"), 2),
          pagination: {
            total: integer(3),
            limit: integer(2),
            has_more: boolean(true),
            next_cursor: regex(/^cur_[A-Za-z0-9_-]+$/, "cur_eyJzIjoyfQ"),
          },
        }),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          const page = await client(server.url).listPayments({ limit: 2 });
          expect(page.pagination.has_more).toBe(true);
        }),
      );
  });

  it("gets 401 with an unknown API key", async () => {
    await pact
      .addInteraction()
      .uponReceiving("a request with an unknown API key")
      .withRequest("GET", "/v1/accounts", (b) => b.headers({ Authorization: "Bearer sk_unknown" }))
      .willRespondWith(401, (b) => b.jsonBody(error("unauthorized")))
      .executeTest(
        answeredAndRecorded(async (server) => {
          await expect(client(server.url, { apiKey: "sk_unknown" }).listAccounts()).rejects.toMatchObject({
            status: 401,
            code: "unauthorized",
          });
        }),
      );
  });
});
