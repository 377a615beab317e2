import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cardPayment, type Harness, harness } from "./support/harness.js";

let h: Harness;
let token: string;
const REPORT = "/api/v1/general/reports/sales/daily-transactions";

beforeAll(async () => {
  h = await harness();
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

describe("text XML 1.0 cannot hold never reaches the report", () => {
  it.each([
    ["a NUL", "Ayşe\u0000Yılmaz", "card.cardHolderName"],
    ["U+FFFE", "Ayşe\uFFFE", "card.cardHolderName"],
    ["U+FFFF", "\uFFFFAyşe", "card.cardHolderName"],
    ["a lone high surrogate", "Ayşe \uD83D", "card.cardHolderName"],
    ["a lone low surrogate", "Ayşe \uDE00", "card.cardHolderName"],
  ])("refuses %s with 400/6001 naming the field", async (_, holder, field) => {
    const reply = await pay(cardPayment({}, { cardHolderName: holder }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(6001);
    expect(reply.body.message).toContain(field);
  });

  it("refuses it in a product name and in additionalParams", async () => {
    const product = await pay(cardPayment({ products: [{ name: "Kitap\u0007", price: 100.5 }] }));
    expect(product.body).toMatchObject({ code: 6001 });
    expect(product.body.message).toContain("products[0].name");
    const params = await pay(cardPayment({ additionalParams: { note: "\uFFFF" } }));
    expect(params.body.message).toContain("additionalParams.note");
  });

  it("keeps the day's report readable after such attempts, with emoji and Turkish text intact", async () => {
    await pay(cardPayment({}, { cardHolderName: "Ayşe\u0000" }));
    const ok = await pay(cardPayment({}, { cardHolderName: "Çağrı Öztürk 😀" }));
    expect(ok.status).toBe(200);
    const date = ok.body.response.createdDate.slice(0, 10);
    const reply = await h.call("GET", `${REPORT}?date=${date}`, { token });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(reply.bytes as never);
    const holder = (workbook.worksheets[0] as ExcelJS.Worksheet).getRow(2).getCell(9).value;
    expect(holder).toBe("Çağrı Öztürk 😀");
  });
});

describe("amounts have sane bounds", () => {
  it.each([
    ["amount", { amount: 1_000_000_000, finalAmount: 1_000_000_000 }],
    ["finalAmount", { finalAmount: 1e308 }],
    ["walletAmount", { walletAmount: 1_000_000_000 }],
    ["installment", { installment: 37 }],
    ["products.0.price", { products: [{ name: "x", price: 1e21 }] }],
    ["reward.cardRewardAmount", { reward: { cardRewardAmount: -5 } }],
  ])("refuses %s beyond its bound with 400/6001", async (field, overrides) => {
    const reply = await pay(cardPayment(overrides));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(6001);
    expect(reply.body.message).toContain(field);
  });

  it("refuses a number that overflows to Infinity", async () => {
    const body = JSON.stringify(cardPayment()).replace('"amount":100.5', '"amount":1e400');
    const reply = await h.call("POST", "/api/v1/payments/card", {
      token,
      raw: body,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(6001);
  });

  it("never reports a commission above the amount, at the largest amount and installment count", async () => {
    const top = 999_999_999.99;
    const reply = await pay(
      cardPayment({ amount: top, finalAmount: top, installment: 36, products: [{ name: "Ev", price: top }] }),
    );
    expect(reply.status).toBe(200);
    const date = reply.body.response.createdDate.slice(0, 10);
    const file = await h.call("GET", `${REPORT}?date=${date}`, { token });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.bytes as never);
    const row = (workbook.worksheets[0] as ExcelJS.Worksheet).getRow(2);
    const amount = row.getCell(5).value as number;
    const commission = row.getCell(7).value as number;
    expect(amount).toBe(top);
    expect(Number.isFinite(commission)).toBe(true);
    expect(commission).toBeLessThanOrEqual(amount);
  });
});
