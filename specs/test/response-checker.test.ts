import { describe, expect, it } from "vitest";
import { cardGatewaySpec, createResponseChecker, paymentsAccountsSpec, specExamples } from "../src/index.js";

const payments = createResponseChecker(paymentsAccountsSpec);
const gateway = createResponseChecker(cardGatewaySpec);
const created = specExamples(paymentsAccountsSpec).find((e) => e.operationId === "createPayment" && e.part === "201")
  ?.value as Record<string, unknown>;
const ok = {
  method: "POST",
  path: "/v1/payments",
  status: 201,
  contentType: "application/json",
  headers: { location: "/v1/payments/pay_1" },
  body: created,
};

describe("createResponseChecker", () => {
  it("accepts a conforming exchange", () => {
    expect(payments.check(ok)).toEqual([]);
  });

  it("reports a dropped required field and a wrong type", () => {
    const { status: _dropped, ...withoutStatus } = created;
    expect(payments.check({ ...ok, body: withoutStatus }).join()).toContain("must have required property 'status'");
    expect(payments.check({ ...ok, body: { ...created, amount: "150075" } }).join()).toContain(
      "/amount must be integer",
    );
  });

  it("reports an undeclared status, content type or missing header", () => {
    expect(payments.check({ ...ok, status: 200 }).join()).toContain("status 200 is not declared");
    expect(payments.check({ ...ok, contentType: "text/html" }).join()).toContain(
      'content type "text/html" is not declared',
    );
    expect(payments.check({ ...ok, headers: {} }).join()).toContain("required header Location is missing");
  });

  it("matches literal paths before templates and knows unknown operations", () => {
    expect(payments.operationFor("POST", "/v1/payments/batch")?.operationId).toBe("createPaymentBatch");
    expect(payments.operationFor("GET", "/v1/payments/pay_1")?.operationId).toBe("getPayment");
    expect(
      gateway.check({ method: "GET", path: "/api/v2/x", status: 200, contentType: null, body: undefined }),
    ).toEqual(["GET /api/v2/x is not an operation of the spec"]);
  });

  it("checks the xlsx report by content type, not by JSON schema", () => {
    const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    const path = "/api/v1/general/reports/sales/daily-transactions";
    expect(gateway.check({ method: "GET", path, status: 200, contentType: xlsx, body: undefined })).toEqual([]);
    expect(
      gateway.check({ method: "GET", path, status: 200, contentType: "application/json", body: {} }).join(),
    ).toContain("not declared");
  });
});

describe("createResponseChecker on another spec's shapes", () => {
  // WireMock's admin API declares some JSON answers by an example alone, with no schema.
  const exampleOnly = {
    openapi: "3.0.0",
    info: { title: "example only", version: "1" },
    paths: {
      "/requests": {
        get: { responses: { "200": { content: { "application/json": { example: { requests: [] } } } } } },
      },
    },
  };

  it("accepts any JSON body for a media type declared with an example but no schema", () => {
    const checker = createResponseChecker(exampleOnly);
    const exchange = { method: "GET", path: "/requests", status: 200, contentType: "application/json" };
    expect(checker.check({ ...exchange, body: { anything: [1, 2] } })).toEqual([]);
    expect(checker.check({ ...exchange, contentType: "text/html", body: "<p>" }).join()).toContain("not declared");
  });
});
