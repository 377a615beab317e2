import {
  ApiError,
  type CardPaymentRequest,
  createCardGatewayClient,
  RequestValidationError,
} from "@payspec/card-gateway-client";
import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { createPaymentsClient } from "@payspec/payments-client";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { type RunningMock, startMock } from "../src/index.js";

let mock: RunningMock;
const logLines: string[] = [];

beforeAll(async () => {
  mock = await startMock({ logRequests: true, log: (line) => logLines.push(line) });
});
afterAll(() => mock.close());

const payments = () => createPaymentsClient({ baseUrl: mock.url, apiKey: "sk_any", validate: true, retry: false });
const gateway = () =>
  createCardGatewayClient({ host: mock.url, apiKey: "key", apiSecret: "secret", validate: true, retry: false });

/** The JSON body of a reply, for reading fields in assertions. */
const json = async (reply: Response): Promise<any> => reply.json();

const card: CardPaymentRequest = {
  referenceId: "3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04",
  amount: 10,
  finalAmount: 10,
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
  products: [{ name: "Kitap", price: 10 }],
};

/** The mock's answer must satisfy the generated zod schema of the operation's success response. */
function expectValid(schema: ZodType | undefined, value: unknown) {
  const result = schema?.safeParse(value);
  expect(result?.success, JSON.stringify(result?.error?.issues)).toBe(true);
}

describe("every operation through the generated clients", () => {
  it("serves the payments API's examples, valid against the zod schemas", async () => {
    const client = payments();
    expectValid(paymentsRoutes["GET /v1/accounts"].response, await client.listAccounts());
    const created = await client.createPayment({
      amount: 150075,
      currency: "TRY",
      method: "eft",
      from_account: "acc_a",
      to_account: "acc_b",
    });
    expectValid(paymentsRoutes["POST /v1/payments"].response, created);
    expectValid(paymentsRoutes["GET /v1/payments/{id}"].response, await client.getPayment(created.id));
    expectValid(paymentsRoutes["DELETE /v1/payments/{id}"].response, await client.cancelPayment(created.id));
    expectValid(paymentsRoutes["GET /v1/payments"].response, await client.listPayments({ limit: 2 }));
    const batch = await client.createPaymentBatch([
      { amount: 1, currency: "TRY", method: "card", from_account: "acc_a", to_account: "acc_b" },
    ]);
    expectValid(paymentsRoutes["POST /v1/payments/batch"].response, batch);
  });

  it("answers a create with the status the spec declares (201) and its Location", async () => {
    const { response } = await payments().raw.POST("/v1/payments", {
      body: { amount: 1, currency: "TRY", method: "card", from_account: "acc_a", to_account: "acc_b" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toMatch(/^\/v1\/payments\/pay_/);
  });

  it("serves the gateway's examples, valid against the zod schemas, and a real xlsx report", async () => {
    const client = gateway();
    const paid = await client.pay(card);
    expectValid(gatewayRoutes["POST /api/v1/payments/card"].response, paid);
    expectValid(
      gatewayRoutes["GET /api/v1/payments/reference/{referenceId}"].response,
      await client.getPaymentByReference(card.referenceId),
    );
    const rows = await client.dailyReport("2026-11-21");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "SUCCESS", cardNumber: "552879******0008" });
  });
});

describe("Prism's Prefer header", () => {
  it("selects a declared status and a named example", async () => {
    const notFound = await fetch(`${mock.url}/v1/payments/pay_x`, {
      headers: { authorization: "Bearer k", prefer: "code=404" },
    });
    expect(notFound.status).toBe(404);
    expect((await json(notFound)).code).toBe("not_found");
    const declined = await fetch(`${mock.url}/api/v1/payments/card`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json", prefer: "example=declined" },
      body: JSON.stringify(card),
    });
    expect((await json(declined)).response.paymentStatus).toBe("FAILURE");
  });

  it("serves schema-generated data on request, still valid", async () => {
    const reply = await fetch(`${mock.url}/v1/accounts`, {
      headers: { authorization: "Bearer k", prefer: "dynamic=true" },
    });
    expectValid(paymentsRoutes["GET /v1/accounts"].response, await json(reply));
  });

  it("turns an impossible Prefer into a 400 naming Prefer", async () => {
    const reply = await fetch(`${mock.url}/v1/accounts`, {
      headers: { authorization: "Bearer k", prefer: "example=nope" },
    });
    expect(reply.status).toBe(400);
    expect(await json(reply)).toMatchObject({ code: "invalid_request", param: "Prefer" });
  });
});

describe("static answers served from memory after Prism's first", () => {
  it("answer exactly as Prism did, per status, example and media type, and still refuse bad input", async () => {
    // A mock of its own: its cache starts empty, so the first answer of each kind is Prism's.
    const fresh = await startMock();
    const auth = { authorization: "Bearer sk_any" };
    const asked = async (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
      const reply = await fetch(`${fresh.url}${path}`, { ...init, headers: { ...auth, ...headers } });
      const { date: _date, "x-request-id": _id, ...rest } = Object.fromEntries(reply.headers);
      return { status: reply.status, headers: rest, body: await reply.text() };
    };
    try {
      for (const [path, headers] of [
        ["/v1/accounts", {}],
        ["/v1/payments/pay_123", {}],
        ["/v1/payments/pay_123", { prefer: "code=404" }],
        ["/v1/accounts", { prefer: "code=401" }],
      ] as const) {
        const first = await asked(path, headers);
        for (let i = 0; i < 3; i++) expect(await asked(path, headers)).toEqual(first);
      }
      expect((await asked("/v1/payments/pay_123", { prefer: "code=404" })).status).toBe(404);
      expect((await asked("/v1/payments/pay_123")).status).toBe(200);
      const post = (body: unknown) => ({
        method: "POST",
        body: JSON.stringify(body),
      });
      const good = await asked("/api/v1/payments/card", { "content-type": "application/json" }, post(card));
      expect(good.status).toBe(200);
      expect(await asked("/api/v1/payments/card", { "content-type": "application/json" }, post(card))).toEqual(good);
      // Served from memory or not, a request the spec refuses is refused, in the gateway's shape.
      const bad = await asked(
        "/api/v1/payments/card",
        { "content-type": "application/json" },
        post({ ...card, amount: -1 }),
      );
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({
        code: expect.any(Number),
        message: expect.stringMatching(/amount/),
      });
    } finally {
      await fresh.close();
    }
  });
});

describe("bad requests get the API's own error shape", () => {
  it("names the bad field in the gateway's {code: 6001, message}", async () => {
    const reply = await fetch(`${mock.url}/api/v1/payments/card`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({ ...card, card: { ...card.card, cvc: "12" } }),
    });
    expect(reply.status).toBe(400);
    const body = await json(reply);
    expect(body.code).toBe(6001);
    expect(body.message).toMatch(/^card\.cvc: /);
  });

  it("refuses VOID, REFUND and POSTAUTH on the card payment endpoint as the sandbox does, never answering them as charged", async () => {
    for (const transactionType of ["VOID", "REFUND", "POSTAUTH"]) {
      const reply = await fetch(`${mock.url}/api/v1/payments/card`, {
        method: "POST",
        headers: { authorization: "Bearer t", "content-type": "application/json" },
        body: JSON.stringify({ ...card, transactionType }),
      });
      expect(reply.status, transactionType).toBe(400);
      const body = await json(reply);
      expect(body.code).toBe(6001);
      expect(body.message).toContain(`transactionType ${transactionType} is`);
    }
  });

  it("answers malformed JSON at once with 400, where Prism alone would hang", async () => {
    const reply = await fetch(`${mock.url}/v1/payments`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: '{"amount": 1,',
      signal: AbortSignal.timeout(5000),
    });
    expect(reply.status).toBe(400);
    expect((await json(reply)).message).toContain("not valid JSON");
  });

  it("refuses bodies nested deeper than 32 levels with 400 in each API's shape, at any depth", async () => {
    const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
    const inBatchEntry = (n: number) => `{"payments":[${objects(n)}]}`;
    const cases = [
      ["/v1/payments", arrays],
      ["/v1/payments", objects],
      ["/v1/payments/batch", arrays],
      ["/v1/payments/batch", inBatchEntry],
      ["/api/v1/payments/card", arrays],
      ["/api/v1/payments/card", objects],
    ] as const;
    for (const [path, body] of cases) {
      for (const depth of [33, 2_000, 10_000, 100_000]) {
        const reply = await fetch(`${mock.url}${path}`, {
          method: "POST",
          headers: { authorization: "Bearer k", "content-type": "application/json" },
          body: body(depth),
          signal: AbortSignal.timeout(5000),
        });
        const what = `${path} ${body.name} ${depth}`;
        expect(reply.status, what).toBe(400);
        const answer = await json(reply);
        expect(answer.code, what).toBe(path.startsWith("/api/") ? 6001 : "invalid_request");
        expect(answer.message, what).toContain("more than 32 levels deep");
      }
    }
  });

  it("answers missing or malformed credentials with 401 in each API's shape", async () => {
    const noKey = await fetch(`${mock.url}/v1/accounts`);
    expect(noKey.status).toBe(401);
    expect((await json(noKey)).code).toBe("unauthorized");
    const badBasic = await fetch(`${mock.url}/auth/login`, {
      method: "POST",
      headers: { authorization: "Basic bm9jb2xvbg==" },
    });
    expect(badBasic.status).toBe(401);
    expect((await json(badBasic)).code).toBe(1001);
    const wrongScheme = await fetch(`${mock.url}/api/v1/payments/reference/x`, {
      headers: { authorization: "Basic a2V5OnM=" },
    });
    expect(wrongScheme.status).toBe(401);
  });

  it("never answers 500 to a client mistake", async () => {
    const attempts = [
      fetch(`${mock.url}/v1/payments?limit=10001`, { headers: { authorization: "Bearer k" } }),
      fetch(`${mock.url}/v1/payments/batch`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify({ payments: [] }),
      }),
      fetch(`${mock.url}/v1/payments`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "text/plain" },
        body: "hi",
      }),
      fetch(`${mock.url}/api/v1/general/reports/sales/daily-transactions?date=21-11-2026`, {
        headers: { authorization: "Bearer t" },
      }),
      fetch(`${mock.url}/api/v1/nothing`, { headers: { authorization: "Bearer t" } }),
      fetch(`${mock.url}/v1/payments/acc_wrong`, { method: "DELETE", headers: { authorization: "Bearer k" } }),
      fetch(`${mock.url}/_sandbox/reset`, { method: "POST" }),
    ];
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses).toEqual([400, 400, 400, 400, 404, 400, 404]);
  });

  it("reports client-side validation through the generated client before anything is sent", async () => {
    const error = await gateway()
      .pay({ ...card, clientIpAddress: "::1" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0].path).toBe("body.clientIpAddress");
    const api = await createCardGatewayClient({
      host: mock.url,
      apiKey: "k",
      apiSecret: "s",
      validate: false,
      retry: false,
    })
      .pay({ ...card, clientIpAddress: "::1" })
      .catch((e) => e);
    expect(api).toBeInstanceOf(ApiError);
    expect(api).toMatchObject({ status: 400, code: 6001 });
  });
});

describe("logs", () => {
  it("write one JSON line per request and never a card number or CVC", async () => {
    logLines.length = 0;
    await gateway().pay({ ...card, card: { ...card.card, cardNumber: "4543590000000006", cvc: "987" } });
    const entries = logLines.map((line) => JSON.parse(line));
    expect(entries).toContainEqual(
      expect.objectContaining({
        method: "POST",
        path: "/api/v1/payments/card",
        status: 200,
        reqId: expect.any(String),
      }),
    );
    // Without the time, pid and host name, whose digits could be anything.
    const logged = entries.map(({ time: _t, pid: _p, hostname: _h, ...rest }) => JSON.stringify(rest)).join("\n");
    expect(logged).not.toMatch(/4543590000000006|987/);
  });
});
