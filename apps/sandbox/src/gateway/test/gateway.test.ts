import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cardPayment, type Harness, harness } from "../../../test/support/harness.js";

let h: Harness;
let token: string;
const REPORT = "/api/v1/general/reports/sales/daily-transactions";

beforeAll(async () => {
  h = await harness({ tokenTtlSeconds: 600 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.sandbox.reset();
  token = await h.login();
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const pay = (body: unknown) => h.call("POST", "/api/v1/payments/card", { token, json: body });

async function reportRows(date: string) {
  const reply = await h.call("GET", `${REPORT}?date=${date}`, { token });
  expect(reply.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(reply.bytes as never);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  return sheet
    .getSheetValues()
    .slice(1)
    .map((row) => (row as unknown[]).slice(1));
}

describe("login", () => {
  it("issues a token for the right key and secret, and 401 otherwise", async () => {
    expect(token.length).toBeGreaterThan(20);
    const wrong = Buffer.from("gw_demo_key:wrong").toString("base64");
    const denied = await h.call("POST", "/auth/login", { headers: { authorization: `Basic ${wrong}` } });
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe(1001);
    expect((await h.call("POST", "/auth/login")).status).toBe(401);
  });

  it("expires tokens after PAYSPEC_TOKEN_TTL_SECONDS", async () => {
    expect((await pay(cardPayment())).status).toBe(200);
    await h.control("/clock/advance", { seconds: 601 }, token);
    const expired = await pay(cardPayment());
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 1001 });
    expect((await h.call("GET", `${REPORT}?date=2026-11-21`, { token })).status).toBe(401);
  });

  it("answers 401 without a bearer token on every gateway operation", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/payments/card"],
      ["GET", `/api/v1/payments/reference/${crypto.randomUUID()}`],
      ["GET", `${REPORT}?date=2026-11-21`],
    ] as const) {
      expect((await h.call(method, path, { token: "forged" })).status, path).toBe(401);
    }
  });
});

describe("card payments", () => {
  it("charges a valid card and answers with a masked card, BIN details and the bank's codes", async () => {
    const request = cardPayment({ correlationId: "corr-1", installment: 3 });
    const reply = await pay(request);
    expect(reply.status).toBe(200);
    const payment = reply.body.response;
    expect(payment).toMatchObject({
      paymentStatus: "SUCCESS",
      referenceId: request.referenceId,
      correlationId: "corr-1",
      transactionType: "AUTH",
      installment: 3,
      cardDetails: {
        cardNumber: "552879******0008",
        cardSchema: "MASTERCARD",
        cardBank: "Garanti BBVA",
        cardBrand: "BONUS",
      },
    });
    expect(payment.id).toBe(payment.transactionId);
    expect(payment.createdDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(payment.authCode).toMatch(/^\d{6}$/);
    expect(payment.hostReferenceNo).toMatch(/^\d{12}$/);
    expect(payment.orderId).toMatch(/^ORD-/);
    expect(payment.products[0]).toMatchObject({ status: "PENDING", commissionRate: 3.89 });
    expect(reply.bytes.toString()).not.toContain("5528790000000008");
    expect(reply.bytes.toString()).not.toContain('"123"');
  });

  it.each([
    ["card.cardNumber", {}, { cardNumber: "4".repeat(12) }],
    ["card.cardNumber", {}, { cardNumber: "4".repeat(20) }],
    ["card.cvc", {}, { cvc: "12" }],
    ["card.cvc", {}, { cvc: "12345" }],
    ["card.expireMonth", {}, { expireMonth: "13" }],
    ["card.expireMonth", {}, { expireMonth: "00" }],
    ["card.expireYear", {}, { expireYear: "2029" }],
    ["card.cardHolderName", {}, { cardHolderName: "  " }],
    ["clientIpAddress", { clientIpAddress: "2001:db8::1" }, {}],
    ["referenceId", { referenceId: "order-1" }, {}],
    ["amount", { amount: 0 }, {}],
    ["finalAmount", { finalAmount: 0.001 }, {}],
    ["walletAmount", { walletAmount: -1 }, {}],
    ["installment", { installment: 0 }, {}],
    ["currency", { currency: "GBP" }, {}],
    ["products", { products: [] }, {}],
    ["products.0.price", { products: [{ name: "x", price: 0 }] }, {}],
    ["products.0.name", { products: [{ name: " ", price: 1 }] }, {}],
  ])("rejects a bad %s with 400/6001 naming it, never echoing the card", async (field, overrides, card) => {
    const reply = await pay(cardPayment(overrides, card));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(6001);
    expect(reply.body.message.startsWith(field)).toBe(true);
    expect(reply.bytes.toString()).not.toMatch(/\d{12,}/);
  });

  it("follows the test-card table", async () => {
    const declined = await pay(cardPayment({}, { cardNumber: "4157920000000002" }));
    expect(declined.status).toBe(200);
    expect(declined.body.response).toMatchObject({ paymentStatus: "FAILURE", authCode: null, hostReferenceNo: null });
    const risky = cardPayment({}, { cardNumber: "5400010000000004" });
    expect((await pay(risky)).body.code).toBe(6003);
    expect((await h.call("GET", `/api/v1/payments/reference/${risky.referenceId}`, { token })).status).toBe(404);
    expect((await pay(cardPayment({}, { cardNumber: "4000000000003220" }))).body.code).toBe(6004);
    const unknownBin = await pay(cardPayment({}, { cardNumber: "6011000000000004" }));
    expect(unknownBin.body.response.cardDetails.cardBank).toBe("UNKNOWN");
  });

  it("never charges a referenceId twice", async () => {
    const request = cardPayment();
    const first = await pay(request);
    const replay = await pay(request);
    expect(replay.status).toBe(200);
    expect(replay.body.response.id).toBe(first.body.response.id);
    const different = await pay({ ...request, amount: 999 });
    expect(different.status).toBe(400);
    expect(different.body.code).toBe(6002);
    const today = first.body.response.createdDate.slice(0, 10);
    expect(await reportRows(today)).toHaveLength(2);
  });

  it("charges AUTH and PREAUTH, and refuses VOID, REFUND and POSTAUTH naming where they belong, charging nothing", async () => {
    const preauth = await pay(cardPayment({ transactionType: "PREAUTH" }));
    expect([preauth.status, preauth.body.response.transactionType]).toEqual([200, "PREAUTH"]);
    for (const transactionType of ["VOID", "REFUND", "POSTAUTH"]) {
      const request = cardPayment({ transactionType });
      const refused = await pay(request);
      expect(refused.status, transactionType).toBe(400);
      expect(refused.body.code).toBe(6001);
      expect(refused.body.message).toMatch(
        new RegExp(`^transactionType ${transactionType} is .*cancellation and refund endpoint.*Send AUTH`),
      );
      const lookedUp = await h.call("GET", `/api/v1/payments/reference/${request.referenceId}`, { token });
      expect(lookedUp.status).toBe(404);
    }
    const today = preauth.body.response.createdDate.slice(0, 10);
    expect(await reportRows(today)).toHaveLength(2);
  });

  it("says what to test with instead of a card that needs 3-D Secure", async () => {
    const threeDs = await pay(cardPayment({}, { cardNumber: "4000000000003220" }));
    expect(threeDs.body).toMatchObject({
      code: 6004,
      message: expect.stringContaining("Test with a card that does not"),
    });
  });

  it("looks a payment up by reference, and 404s an unknown one", async () => {
    const request = cardPayment();
    const { body } = await pay(request);
    const found = await h.call("GET", `/api/v1/payments/reference/${request.referenceId}`, { token });
    expect(found.body.response).toMatchObject({
      id: body.response.id,
      paymentType: "CARD",
      cardDetails: { cardNumber: "552879******0008" },
    });
    const missing = await h.call("GET", `/api/v1/payments/reference/${crypto.randomUUID()}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(4004);
  });
});

describe("daily report", () => {
  it("holds the day's successful transactions only, with the twelve headers in order", async () => {
    const ok = await pay(cardPayment({ amount: 250, finalAmount: 250, products: [{ name: "Çanta", price: 250 }] }));
    await pay(cardPayment({}, { cardNumber: "4157920000000002" }));
    const today = ok.body.response.createdDate.slice(0, 10);
    const reply = await h.call("GET", `${REPORT}?date=${today}`, { token });
    expect(reply.headers.get("content-disposition")).toBe(`attachment; filename="daily-transactions-${today}.xlsx"`);
    const [header, ...rows] = await reportRows(today);
    expect(header).toEqual([
      "Oluşturulma Tarihi",
      "İşlem ID",
      "Sipariş ID",
      "Durum",
      "Tutar",
      "Para Birimi",
      "Komisyon",
      "Kart Numarası",
      "Kart Sahibi",
      "Taksit",
      "Auth Kodu",
      "Referans ID",
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual([
      ok.body.response.createdDate,
      ok.body.response.transactionId,
      ok.body.response.orderId,
      "SUCCESS",
      250,
      "TRY",
      6.23,
      "552879******0008",
      "Ayşe Yılmaz",
      1,
      ok.body.response.authCode,
      ok.body.response.referenceId,
    ]);
  });

  it("gives an empty day the header row only and a malformed date 400", async () => {
    const rows = await reportRows("2001-01-01");
    expect(rows).toHaveLength(1);
    for (const date of ["21-11-2026", "2026-13-01", ""]) {
      const reply = await h.call("GET", `${REPORT}?date=${date}`, { token });
      expect(reply.status, date).toBe(400);
      expect(reply.body.code).toBe(6001);
      expect(reply.body.message).toContain("date");
    }
  });
});
