import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET, GATEWAY_SCOPE, startSandbox } from "@payspec/sandbox";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ApiError,
  type CardGatewayClient,
  type CardPaymentRequest,
  createCardGatewayClient,
  ReportFormatError,
  RequestValidationError,
  TimeoutError,
} from "../src/index.js";
import { cardRequest } from "./support/card-request.js";

let gateway: CardGatewayClient;

const suite = proxiedDuringSuite(() => startSandbox({ tokenTtlSeconds: 60 }), { beforeAll, afterAll, beforeEach });
beforeEach(async () => {
  gateway = client();
});

function client(overrides: Partial<Parameters<typeof createCardGatewayClient>[0]> = {}) {
  return createCardGatewayClient({
    host: suite.proxy.url,
    apiKey: DEMO_GATEWAY_KEY,
    apiSecret: DEMO_GATEWAY_SECRET,
    retry: { baseDelayMs: 1 },
    validate: true,
    ...overrides,
  });
}

const request = (overrides: Partial<CardPaymentRequest> = {}) => cardRequest(overrides);

const logins = () => suite.proxy.seen.filter((r) => r.url === "/auth/login").length;
const today = async () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Istanbul" }).format(
    new Date(await suite.target.clocks.now(GATEWAY_SCOPE)),
  );

describe("login and tokens", () => {
  it("logs in once with Basic and reuses the token, even for concurrent calls", async () => {
    await Promise.all([gateway.pay(request()), gateway.pay(request()), gateway.pay(request())]);
    await gateway.getPaymentByReference((await gateway.pay(request())).response.referenceId);
    expect(logins()).toBe(1);
    const login = suite.proxy.seen.find((r) => r.url === "/auth/login");
    expect(login?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64")}`,
    );
    expect(
      suite.proxy.seen
        .filter((r) => r.url !== "/auth/login")
        .every((r) => String(r.headers.authorization).startsWith("Bearer ")),
    ).toBe(true);
  });

  it("logs in again once after a 401 and repeats the call", async () => {
    const noEarlyRefresh = client();
    await noEarlyRefresh.pay(request());
    // The sandbox's token dies; the client still believes in it until the 401.
    suite.proxy.inject({
      when: (r) => r.url === "/api/v1/payments/card",
      fault: { kind: "respond", status: 401, body: { code: 1001, message: "expired" } },
      times: 1,
    });
    const paid = await noEarlyRefresh.pay(request());
    expect(paid.response.paymentStatus).toBe("SUCCESS");
    expect(logins()).toBe(2);
  });

  it("refreshes a token that the sandbox expired", async () => {
    await gateway.pay(request());
    await fetch(`${suite.target.url}/_sandbox/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await gateway.login()}` },
      body: '{"seconds": 61}',
    });
    expect((await gateway.pay(request())).response.paymentStatus).toBe("SUCCESS");
    expect(logins()).toBe(2);
  });

  it("throws ApiError 401 with the gateway's code for a wrong secret", async () => {
    const error = await client({ apiSecret: "wrong" })
      .pay(request())
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 1001 });
  });
});

describe("per-call options and the answer's request id", () => {
  it("sends a call's headers past the login, times a call by its own timeoutMs, and gives every answer lastResponse", async () => {
    const paid = await gateway.pay(request(), { headers: { "x-trace-id": "trace-7" } });
    expect(suite.proxy.seen.find((r) => r.url === "/api/v1/payments/card")?.headers["x-trace-id"]).toBe("trace-7");
    expect(paid.lastResponse.requestId).toMatch(/^req_/);
    const found = await gateway.getPaymentByReference(paid.response.referenceId, { timeoutMs: 5_000 });
    expect(found.lastResponse.status).toBe(200);
    const report = await gateway.downloadDailyReport(await today());
    expect(report.lastResponse.requestId).toMatch(/^req_/);
    suite.proxy.inject({
      when: (r) => r.url.startsWith("/api/v1/payments/reference/"),
      fault: { kind: "delay", ms: 2_000 },
    });
    const impatient = await gateway
      .getPaymentByReference(paid.response.referenceId, { timeoutMs: 150 })
      .catch((e) => e);
    expect(impatient).toBeInstanceOf(TimeoutError);
    expect(impatient.message).toContain("within 150 ms");
  });
});

describe("payments and lookup", () => {
  it("pays, looks up by reference, and throws 404 for an unknown reference", async () => {
    const paid = await gateway.pay(request({ installment: 2 }));
    expect(paid.response.cardDetails.cardNumber).toBe("552879******0008");
    const found = await gateway.getPaymentByReference(paid.response.referenceId);
    expect(found.response.id).toBe(paid.response.id);
    await expect(gateway.getPaymentByReference(crypto.randomUUID())).rejects.toMatchObject({ status: 404, code: 4004 });
  });

  it("names the bad field before sending and never echoes the card", async () => {
    const bad = request({
      card: {
        cardHolderName: "Ayşe Yılmaz",
        cardNumber: "5528790000000008",
        expireYear: "29",
        expireMonth: "13",
        cvc: "12",
      },
    });
    const error = await gateway.pay(bad).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      "body.card.cvc",
      "body.card.expireMonth",
    ]);
    expect(error.message).not.toContain("5528790000000008");
    expect(suite.proxy.seen.filter((r) => r.url === "/api/v1/payments/card")).toHaveLength(0);
  });

  it("surfaces the gateway's own errors: risk rejection is ApiError 400/6003", async () => {
    const risky = request({
      card: {
        cardHolderName: "Can Öz",
        cardNumber: "5400010000000004",
        expireYear: "28",
        expireMonth: "01",
        cvc: "321",
      },
    });
    await expect(gateway.pay(risky)).rejects.toMatchObject({ status: 400, code: 6003 });
  });

  it("does not retry a card payment after a timeout unless told to; with retries the reference keeps it single", async () => {
    // The timeout is far above an undisturbed answer and far below the delay, so a busy machine can
    // neither make a healthy retry time out nor the delayed first attempt arrive in time.
    const delayed = { when: (r: { url: string }) => r.url === "/api/v1/payments/card", times: 1 };
    const impatient = client({ timeoutMs: 1_000 });
    await impatient.login();
    suite.proxy.clear();
    suite.proxy.inject({ ...delayed, fault: { kind: "delay", ms: 3_000 } });
    await expect(impatient.pay(request())).rejects.toBeInstanceOf(TimeoutError);
    expect(suite.proxy.seen.filter((r) => r.url === "/api/v1/payments/card")).toHaveLength(1);

    const retrying = client({ timeoutMs: 1_000, retryCardPayments: true });
    suite.proxy.inject({ ...delayed, fault: { kind: "delay", ms: 3_000 } });
    const once = request();
    const paid = await retrying.pay(once);
    // Let the delayed first attempt reach the gateway too: the reference must keep it from paying twice.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rows = (await gateway.dailyReport(await today())).filter((r) => r.referenceId === once.referenceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.transactionId).toBe(paid.response.transactionId);
  });
});

describe("daily report", () => {
  it("downloads the xlsx and parses it into typed rows", async () => {
    const paid = await gateway.pay(
      request({ amount: 99.9, finalAmount: 99.9, products: [{ name: "Kitap", price: 99.9 }] }),
    );
    await gateway.pay(
      request({
        card: {
          cardHolderName: "Mehmet Demir",
          cardNumber: "4157920000000002",
          expireYear: "30",
          expireMonth: "02",
          cvc: "111",
        },
      }),
    );
    const bytes = await gateway.downloadDailyReport(await today());
    expect(Buffer.from(bytes.subarray(0, 2)).toString()).toBe("PK");
    const rows = await gateway.dailyReport(await today());
    expect(rows).toEqual([
      {
        createdDate: paid.response.createdDate,
        transactionId: paid.response.transactionId,
        orderId: paid.response.orderId,
        status: "SUCCESS",
        amount: 99.9,
        currency: "TRY",
        commission: 2.49,
        cardNumber: "552879******0008",
        cardHolderName: "Ayşe Yılmaz",
        installment: 1,
        authCode: paid.response.authCode,
        referenceId: paid.response.referenceId,
      },
    ]);
  });

  it("rejects a report whose headers are not the spec's, naming the column", async () => {
    await gateway.pay(request());
    suite.proxy.inject({
      when: (r) => r.url.startsWith("/api/v1/general/reports"),
      fault: {
        kind: "replaceBytes",
        replace: async (bytes) => {
          const workbook = new ExcelJS.Workbook();
          await workbook.xlsx.load(bytes as never);
          (workbook.worksheets[0] as ExcelJS.Worksheet).getCell("E1").value = "Amount";
          return Buffer.from(await workbook.xlsx.writeBuffer());
        },
      },
      times: 1,
    });
    const error = await gateway.dailyReport(await today()).catch((e) => e);
    expect(error).toBeInstanceOf(ReportFormatError);
    expect(error.message).toBe('Column 5 should be "Tutar" but is "Amount".');
  });
});
