// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 a2868d6e0e30fcddcd8e88add72828af7e2dd6171048f251ed85f99f8a8421e8)
// regenerate with `pnpm generate`.

import * as zod from "./zod.gen.js";

/** Every operation of the spec by `METHOD /path/template`, with its zod request and response schemas. */
export const routes = {
  "POST /auth/login": { operationId: "login", method: "POST", path: "/auth/login", successStatus: 200, data: zod.zLoginData, response: zod.zLoginResponse },
  "POST /api/v1/payments/card": { operationId: "createCardPayment", method: "POST", path: "/api/v1/payments/card", successStatus: 200, data: zod.zCreateCardPaymentData, response: zod.zCreateCardPaymentResponse },
  "GET /api/v1/payments/reference/{referenceId}": { operationId: "getPaymentByReference", method: "GET", path: "/api/v1/payments/reference/{referenceId}", successStatus: 200, data: zod.zGetPaymentByReferenceData, response: zod.zGetPaymentByReferenceResponse },
  "GET /api/v1/general/reports/sales/daily-transactions": { operationId: "getDailyTransactionsReport", method: "GET", path: "/api/v1/general/reports/sales/daily-transactions", successStatus: 200, data: zod.zGetDailyTransactionsReportData, response: zod.zGetDailyTransactionsReportResponse },
} as const;

export type RouteKey = keyof typeof routes;
