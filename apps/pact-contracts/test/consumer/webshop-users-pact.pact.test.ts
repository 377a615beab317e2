// A pact written the way a team building on payspec's APIs writes one: plain pact-js and fetch, not
// payspec's clients. Most interactions are right; some contradict the spec on purpose (a status it
// does not declare, a field it does not have, a bound broken, a provider state nobody offers), so
// `payspec-verify pact` can be shown to judge each one exactly. Written to a scratch directory and
// compared with the committed copy in users-pacts/ (PAYSPEC_UPDATE_PACTS=1 rewrites it).
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MatchersV3, PactV4 } from "@pact-foundation/pact";
import { afterAll, describe, expect, it } from "vitest";
import { usersPactsDir } from "../../src/index.js";
import { answeredAndRecorded } from "./answered-and-recorded.js";

const { eachLike, fromProviderState, integer, like, regex, number } = MatchersV3;
const FILE = "webshop-payspec-payments.json";
const scratch = mkdtempSync(join(tmpdir(), "users-pact-"));
const pact = new PactV4({ consumer: "webshop", provider: "payspec-payments", dir: scratch, logLevel: "warn" });
const auth = { Authorization: "Bearer sk_webshop_test_key" };
const json = { "Content-Type": "application/json" };

const payment = (status: string) => ({
  id: regex(/^pay_[A-Za-z0-9]+$/, "pay_7Hk2mQ9xR4tZ"),
  amount: integer(4990),
  currency: "TRY",
  method: "eft",
  status,
  created_at: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, "2026-11-24T09:15:02.123Z"),
});

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = auth) {
  const answer = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: await answer.json().catch(() => undefined) };
}

/** A create's test body: the interaction's body with the example account ids, answered 201. */
const createsBetweenTheExampleAccounts = (body: Record<string, unknown>) =>
  answeredAndRecorded(async (server: { readonly port: number; readonly url: string }) => {
    const made = await call(`${server.url}/v1/payments`, "POST", {
      ...body,
      from_account: "acc_from",
      to_account: "acc_to",
    });
    expect(made.status).toBe(201);
  });

afterAll(() => {
  const written = join(scratch, FILE);
  if (process.env.PAYSPEC_UPDATE_PACTS === "1") copyFileSync(written, join(usersPactsDir, FILE));
  const interactions = (file: string) => JSON.parse(readFileSync(file, "utf8")).interactions;
  // The committed pact is the one the consumer test runs the published verifier on: it must be today's.
  expect(interactions(written)).toEqual(interactions(join(usersPactsDir, FILE)));
});

describe("the webshop's pact with payspec's payments API", () => {
  it("lists the accounts (right)", async () => {
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a request for the accounts")
      .withRequest("GET", "/v1/accounts", (b) => b.headers(auth))
      .willRespondWith(200, (b) =>
        b.jsonBody(
          eachLike({
            id: regex(/^acc_\w+$/, "acc_1"),
            name: like("Vadesiz TRY"),
            currency: like("TRY"),
            balance: number(10),
          }),
        ),
      )
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/accounts`, "GET")).status).toBe(200);
        }),
      );
  });

  it("creates a payment between the state's accounts (right)", async () => {
    const body = {
      amount: 4990,
      currency: "TRY",
      method: "eft",
      from_account: fromProviderState("${fromAccount}", "acc_from"),
      to_account: fromProviderState("${toAccount}", "acc_to"),
      reference: "SİPARİŞ-ğüşıöç-1",
    };
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a new payment")
      .withRequest("POST", "/v1/payments", (b) => b.headers(auth).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody(payment("pending")))
      .executeTest(createsBetweenTheExampleAccounts(body));
  });

  it("reads a pending payment by its id (right)", async () => {
    await pact
      .addInteraction()
      .given("a pending payment exists", { amount: 4990 })
      .uponReceiving("a request for a pending payment")
      .withRequest("GET", fromProviderState("/v1/payments/${id}", "/v1/payments/pay_7Hk2mQ9xR4tZ"), (b) =>
        b.headers(auth),
      )
      .willRespondWith(200, (b) => b.jsonBody(payment("pending")))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/payments/pay_7Hk2mQ9xR4tZ`, "GET")).status).toBe(200);
        }),
      );
  });

  it("expects a status the spec does not declare (wrong)", async () => {
    await pact
      .addInteraction()
      .given("no payment pay_gone0000000 exists")
      .uponReceiving("a request for a payment that is gone")
      .withRequest("GET", "/v1/payments/pay_gone0000000", (b) => b.headers(auth))
      .willRespondWith(410, (b) => b.jsonBody({ code: like("not_found"), message: like("Gone.") }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/payments/pay_gone0000000`, "GET")).status).toBe(410);
        }),
      );
  });

  it("expects a field the spec does not have (wrong)", async () => {
    await pact
      .addInteraction()
      .given("a pending payment exists")
      .uponReceiving("a request for a payment with its risk score")
      .withRequest("GET", fromProviderState("/v1/payments/${id}", "/v1/payments/pay_7Hk2mQ9xR4tZ"), (b) =>
        b.headers(auth),
      )
      .willRespondWith(200, (b) => b.jsonBody({ ...payment("pending"), risk_score: integer(12) }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/payments/pay_7Hk2mQ9xR4tZ`, "GET")).status).toBe(200);
        }),
      );
  });

  it("sends an amount below the spec's bound and expects it created (wrong)", async () => {
    const body = {
      amount: 0,
      currency: "TRY",
      method: "eft",
      from_account: fromProviderState("${fromAccount}", "acc_from"),
      to_account: fromProviderState("${toAccount}", "acc_to"),
    };
    await pact
      .addInteraction()
      .given("the workspace has its seeded accounts")
      .uponReceiving("a new payment of nothing")
      .withRequest("POST", "/v1/payments", (b) => b.headers(auth).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody(payment("pending")))
      .executeTest(createsBetweenTheExampleAccounts(body));
  });

  it("names a provider state nobody offers (wrong)", async () => {
    await pact
      .addInteraction()
      .given("a refunded payment exists")
      .uponReceiving("a request for a refunded payment")
      .withRequest("GET", "/v1/payments/pay_refunded00001", (b) => b.headers(auth))
      .willRespondWith(200, (b) => b.jsonBody(payment("completed")))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/payments/pay_refunded00001`, "GET")).status).toBe(200);
        }),
      );
  });

  it("is refused without credentials (right)", async () => {
    await pact
      .addInteraction()
      .uponReceiving("a request for the accounts without an API key")
      .withRequest("GET", "/v1/accounts")
      .willRespondWith(401, (b) => b.jsonBody({ code: like("unauthorized"), message: like("Send your API key.") }))
      .executeTest(
        answeredAndRecorded(async (server) => {
          expect((await call(`${server.url}/v1/accounts`, "GET", undefined, {})).status).toBe(401);
        }),
      );
  });
});
