import { describe, expect, it } from "vitest";
import { cardGatewaySpec, createSpecValidator, paymentsAccountsSpec, pointerOf } from "../src/index.js";

type Node = Record<string, any>;

const payments = createSpecValidator(paymentsAccountsSpec);
const gateway = createSpecValidator(cardGatewaySpec);

const paymentsSchema = (name: string) => pointerOf("components", "schemas", name);
const gatewaySchema = (name: string) => pointerOf("components", "schemas", name);

function exampleValue(spec: Node, path: string, method: string, name: string): Node {
  return structuredClone(spec.paths[path][method].requestBody.content["application/json"].examples[name].value);
}

/** A copy of `base` with the value at a dotted path (array indexes allowed) replaced or removed. */
function withValue(base: Node, path: string, value: unknown): Node {
  const copy = structuredClone(base);
  const keys = path.split(".");
  const last = keys.pop() as string;
  const parent = keys.reduce((node: Node, key) => node[key], copy);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

function queryParamSchema(spec: Node, path: string, name: string): string {
  const index = spec.paths[path].get.parameters.findIndex((p: Node) => p.name === name);
  return pointerOf("paths", path, "get", "parameters", index, "schema");
}

const payment = exampleValue(paymentsAccountsSpec, "/v1/payments", "post", "invoicePayment");
const cardPayment = exampleValue(cardGatewaySpec, "/api/v1/payments/card", "post", "singlePayment");

type Case = readonly [label: string, value: unknown, valid: boolean];

function expectCases(validator: ReturnType<typeof createSpecValidator>, pointer: string, cases: readonly Case[]) {
  for (const [label, value, valid] of cases) {
    const result = validator.validate(pointer, value);
    expect(result.valid, `${label}: ${result.errors.join("; ")}`).toBe(valid);
  }
}

describe("payments-accounts bounds from the seed", () => {
  const create = paymentsSchema("PaymentCreate");

  it("amount is an integer >= 1 in minor units", () => {
    expectCases(payments, create, [
      ["amount 1", withValue(payment, "amount", 1), true],
      ["amount 0", withValue(payment, "amount", 0), false],
      ["amount -5", withValue(payment, "amount", -5), false],
      ["amount 1.5", withValue(payment, "amount", 1.5), false],
      ["amount '100'", withValue(payment, "amount", "100"), false],
    ]);
  });

  it("requires amount, currency, method, from_account and to_account", () => {
    for (const field of ["amount", "currency", "method", "from_account", "to_account"]) {
      expectCases(payments, create, [[`without ${field}`, withValue(payment, field, undefined), false]]);
    }
    expectCases(payments, create, [
      [
        "without description and reference",
        withValue(withValue(payment, "description", undefined), "reference", undefined),
        true,
      ],
      ["with an unknown field", withValue(payment, "amout", 5), false],
    ]);
  });

  it("currency is an ISO 4217 code", () => {
    expectCases(payments, create, [
      ["USD", withValue(payment, "currency", "USD"), true],
      ["lowercase try", withValue(payment, "currency", "try"), false],
      ["four letters", withValue(payment, "currency", "TRYY"), false],
    ]);
  });

  it("method has exactly the four API values, not direct_debit", () => {
    expect((paymentsAccountsSpec as Node).components.schemas.PaymentMethod.enum).toEqual([
      "bank_transfer",
      "card",
      "virtual_account",
      "eft",
    ]);
    expectCases(payments, create, [
      ["eft", withValue(payment, "method", "eft"), true],
      ["direct_debit", withValue(payment, "method", "direct_debit"), false],
    ]);
  });

  it("account ids are prefixed acc_, payment ids pay_, cursors cur_", () => {
    expectCases(payments, create, [
      ["acc_ id", withValue(payment, "from_account", "acc_Z9"), true],
      ["pay_ id as account", withValue(payment, "from_account", "pay_Z9"), false],
      ["bare acc_", withValue(payment, "to_account", "acc_"), false],
    ]);
    expectCases(payments, paymentsSchema("PaymentId"), [
      ["pay_ id", "pay_7Hk2mQ9xR4tZ", true],
      ["acc_ id", "acc_7Hk2mQ9xR4tZ", false],
    ]);
    expectCases(payments, paymentsSchema("Cursor"), [
      ["cur_ cursor", "cur_eyJzIjoyfQ", true],
      ["bare cursor", "eyJzIjoyfQ", false],
    ]);
  });

  it("has the eight payment states", () => {
    expect((paymentsAccountsSpec as Node).components.schemas.PaymentStatus.enum).toEqual([
      "pending",
      "approved",
      "processing",
      "settled",
      "reconciled",
      "cancelled",
      "completed",
      "failed",
    ]);
  });

  it("a batch holds 1 to 500 entries", () => {
    const batch = (n: number) => ({ payments: Array.from({ length: n }, () => payment) });
    expectCases(payments, paymentsSchema("PaymentBatchRequest"), [
      ["1 entry", batch(1), true],
      ["500 entries", batch(500), true],
      ["501 entries", batch(501), false],
      ["0 entries", batch(0), false],
      ["entries that are not objects", { payments: [1, "x"] }, false],
    ]);
  });

  it("limit is 1 to 10,000 and from/to are YYYY-MM-DD", () => {
    const spec = paymentsAccountsSpec as Node;
    expectCases(payments, queryParamSchema(spec, "/v1/payments", "limit"), [
      ["limit 10000", 10000, true],
      ["limit 1", 1, true],
      ["limit 10001", 10001, false],
      ["limit 0", 0, false],
    ]);
    for (const name of ["from", "to"]) {
      expectCases(payments, queryParamSchema(spec, "/v1/payments", name), [
        [`${name} 2026-11-21`, "2026-11-21", true],
        [`${name} with a time`, "2026-11-21T00:00:00Z", false],
        [`${name} day first`, "21-11-2026", false],
        [`${name} month 13`, "2026-13-01", false],
      ]);
    }
    expectCases(payments, queryParamSchema(spec, "/v1/payments", "status"), [
      ["status completed", "completed", true],
      ["status done", "done", false],
    ]);
  });

  it("created_at is an ISO 8601 UTC timestamp", () => {
    const created = (paymentsAccountsSpec as Node).paths["/v1/payments"].post.responses["201"].content[
      "application/json"
    ].examples.created.value;
    expectCases(payments, paymentsSchema("Payment"), [
      ["UTC", created, true],
      ["with an offset", withValue(created, "created_at", "2026-11-21T12:15:02+03:00"), false],
      ["not a date", withValue(created, "created_at", "yesterday"), false],
    ]);
  });

  it("uses bearer API keys on every operation", () => {
    const spec = paymentsAccountsSpec as Node;
    expect(spec.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    for (const item of Object.values<Node>(spec.paths)) {
      for (const op of Object.values<Node>(item).filter((o) => o.operationId)) {
        expect(op.security, op.operationId).toEqual([{ apiKey: [] }]);
      }
    }
  });
});

describe("card-gateway bounds from the seed", () => {
  const request = gatewaySchema("CardPaymentRequest");

  it("referenceId is a UUID", () => {
    expectCases(gateway, request, [
      ["uuid", withValue(cardPayment, "referenceId", "9d2b7e14-3a6c-4f81-b5d0-8c1e2a7f3b65"), true],
      ["not a uuid", withValue(cardPayment, "referenceId", "order-42"), false],
      ["missing", withValue(cardPayment, "referenceId", undefined), false],
    ]);
  });

  it("card number is 13 to 19 digits", () => {
    expectCases(gateway, request, [
      ["13 digits", withValue(cardPayment, "card.cardNumber", "4".repeat(13)), true],
      ["19 digits", withValue(cardPayment, "card.cardNumber", "4".repeat(19)), true],
      ["12 digits", withValue(cardPayment, "card.cardNumber", "4".repeat(12)), false],
      ["20 digits", withValue(cardPayment, "card.cardNumber", "4".repeat(20)), false],
      ["with spaces", withValue(cardPayment, "card.cardNumber", "5528 7900 0000 0008"), false],
    ]);
  });

  it("cvc is 3 to 4 digits", () => {
    expectCases(gateway, request, [
      ["3 digits", withValue(cardPayment, "card.cvc", "123"), true],
      ["4 digits", withValue(cardPayment, "card.cvc", "1234"), true],
      ["2 digits", withValue(cardPayment, "card.cvc", "12"), false],
      ["5 digits", withValue(cardPayment, "card.cvc", "12345"), false],
      ["blank", withValue(cardPayment, "card.cvc", "   "), false],
    ]);
  });

  it("expireMonth is 01 to 12 and expireYear is YY", () => {
    expectCases(gateway, request, [
      ["month 01", withValue(cardPayment, "card.expireMonth", "01"), true],
      ["month 12", withValue(cardPayment, "card.expireMonth", "12"), true],
      ["month 00", withValue(cardPayment, "card.expireMonth", "00"), false],
      ["month 13", withValue(cardPayment, "card.expireMonth", "13"), false],
      ["month 1", withValue(cardPayment, "card.expireMonth", "1"), false],
      ["year 29", withValue(cardPayment, "card.expireYear", "29"), true],
      ["year 2029", withValue(cardPayment, "card.expireYear", "2029"), false],
      ["year 9", withValue(cardPayment, "card.expireYear", "9"), false],
    ]);
  });

  it("cardHolderName and product names are not blank", () => {
    expectCases(gateway, request, [
      ["blank holder", withValue(cardPayment, "card.cardHolderName", "   "), false],
      ["empty holder", withValue(cardPayment, "card.cardHolderName", ""), false],
      ["blank product", withValue(cardPayment, "products.0.name", " "), false],
    ]);
  });

  it("clientIpAddress is IPv4", () => {
    expectCases(gateway, request, [
      ["IPv4", withValue(cardPayment, "clientIpAddress", "10.0.0.1"), true],
      ["IPv6", withValue(cardPayment, "clientIpAddress", "2001:db8::1"), false],
      ["octet 256", withValue(cardPayment, "clientIpAddress", "256.1.1.1"), false],
      ["missing", withValue(cardPayment, "clientIpAddress", undefined), false],
    ]);
  });

  it("amount, finalAmount and product price are at least 0.01", () => {
    for (const field of ["amount", "finalAmount", "products.0.price"]) {
      expectCases(gateway, request, [
        [`${field} 0.01`, withValue(cardPayment, field, 0.01), true],
        [`${field} 0`, withValue(cardPayment, field, 0), false],
        [`${field} 0.009`, withValue(cardPayment, field, 0.009), false],
      ]);
    }
  });

  it("walletAmount and subMerchantPrice are at least 0, installment at least 1", () => {
    expectCases(gateway, request, [
      ["walletAmount 0", withValue(cardPayment, "walletAmount", 0), true],
      ["walletAmount -0.01", withValue(cardPayment, "walletAmount", -0.01), false],
      ["walletAmount missing", withValue(cardPayment, "walletAmount", undefined), false],
      ["subMerchantPrice 0", withValue(cardPayment, "products.0.subMerchantPrice", 0), true],
      ["subMerchantPrice -0.01", withValue(cardPayment, "products.0.subMerchantPrice", -0.01), false],
      ["installment 1", withValue(cardPayment, "installment", 1), true],
      ["installment 0", withValue(cardPayment, "installment", 0), false],
      ["installment 1.5", withValue(cardPayment, "installment", 1.5), false],
    ]);
  });

  it("needs at least one product", () => {
    expectCases(gateway, request, [
      ["no products", withValue(cardPayment, "products", []), false],
      ["products missing", withValue(cardPayment, "products", undefined), false],
    ]);
  });

  it("takes TRY, USD and EUR on the card endpoint while Currency also holds GBP", () => {
    expectCases(gateway, request, [
      ["TRY", withValue(cardPayment, "currency", "TRY"), true],
      ["EUR", withValue(cardPayment, "currency", "EUR"), true],
      ["GBP", withValue(cardPayment, "currency", "GBP"), false],
    ]);
    const currency = (cardGatewaySpec as Node).components.schemas.Currency;
    expect(currency.enum).toEqual(["TRY", "USD", "EUR", "GBP"]);
    expect(currency["x-iso4217-numeric"]).toEqual({ TRY: 949, USD: 840, EUR: 978, GBP: 826 });
  });

  it("defaults transactionType to AUTH and lists five types", () => {
    const schemas = (cardGatewaySpec as Node).components.schemas;
    expect(schemas.CardPaymentRequest.properties.transactionType.default).toBe("AUTH");
    expect(schemas.TransactionType.enum).toEqual(["AUTH", "PREAUTH", "POSTAUTH", "VOID", "REFUND"]);
  });

  it("has the eight PaymentStatus values", () => {
    expect((cardGatewaySpec as Node).components.schemas.PaymentStatus.enum).toEqual([
      "SUCCESS",
      "FAILURE",
      "WAITING",
      "INIT_THREEDS",
      "CALLBACK_THREEDS",
      "CANCELLED",
      "COMPLETED",
      "PARTIALLY_REFUNDED",
    ]);
  });

  it("shows createdDate as yyyy-MM-dd HH:mm:ss and card numbers masked", () => {
    expectCases(gateway, gatewaySchema("LocalDateTime"), [
      ["local date-time", "2026-11-21 14:32:05", true],
      ["ISO 8601", "2026-11-21T14:32:05Z", false],
      ["hour 24", "2026-11-21 24:00:00", false],
    ]);
    expectCases(gateway, gatewaySchema("MaskedCardNumber"), [
      ["first six, last four", "552879******0008", true],
      ["full number", "5528790000000008", false],
      ["more than six shown", "5528790*****0008", false],
    ]);
  });

  it("answers errors as {code: integer, message} with 6001 and the seed's statuses", () => {
    expectCases(gateway, gatewaySchema("Error"), [
      ["6001", { code: 6001, message: "card.cvc must be 3 to 4 digits" }, true],
      ["string code", { code: "6001", message: "x" }, false],
      ["no message", { code: 6001 }, false],
    ]);
    const responses = (cardGatewaySpec as Node).paths["/api/v1/payments/reference/{referenceId}"].get.responses;
    expect(Object.keys(responses).sort()).toEqual(["200", "400", "401", "403", "404", "500", "503"]);
  });

  it("serves the daily report as xlsx with the twelve Turkish columns in order", () => {
    const content = (cardGatewaySpec as Node).paths["/api/v1/general/reports/sales/daily-transactions"].get.responses[
      "200"
    ].content;
    const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    expect(Object.keys(content)).toEqual([xlsx]);
    expect(content[xlsx]["x-report-columns"].map((c: Node) => c.header)).toEqual([
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
  });

  it("uses Basic on /auth/login only and Bearer everywhere else under /api/v1", () => {
    const spec = cardGatewaySpec as Node;
    for (const [path, item] of Object.entries<Node>(spec.paths)) {
      for (const op of Object.values<Node>(item).filter((o) => o.operationId)) {
        if (path === "/auth/login") expect(op.security).toEqual([{ basicAuth: [] }]);
        else {
          expect(path.startsWith("/api/v1/"), path).toBe(true);
          expect(op.security).toEqual([{ bearerAuth: [] }]);
        }
      }
    }
  });
});
