// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 3.0.0, sha256 85a667f1bc5373dc6610bf1ba99732f40e7b4da97c806047a8f419219c0c008b)
// regenerate with `pnpm generate`.

import * as zod from "./zod.gen.js";

/** Every operation of the spec by `METHOD /path/template`, with its zod request and response schemas. */
export const routes = {
  "GET /v1/accounts": { operationId: "listAccounts", method: "GET", path: "/v1/accounts", successStatus: 200, data: zod.zListAccountsData, response: zod.zListAccountsResponse },
  "GET /v1/payments": { operationId: "listPayments", method: "GET", path: "/v1/payments", successStatus: 200, data: zod.zListPaymentsData, response: zod.zListPaymentsResponse },
  "POST /v1/payments": { operationId: "createPayment", method: "POST", path: "/v1/payments", successStatus: 201, data: zod.zCreatePaymentData, response: zod.zCreatePaymentResponse },
  "GET /v1/payments/{id}": { operationId: "getPayment", method: "GET", path: "/v1/payments/{id}", successStatus: 200, data: zod.zGetPaymentData, response: zod.zGetPaymentResponse },
  "DELETE /v1/payments/{id}": { operationId: "cancelPayment", method: "DELETE", path: "/v1/payments/{id}", successStatus: 200, data: zod.zCancelPaymentData, response: zod.zCancelPaymentResponse },
  "POST /v1/payments/batch": { operationId: "createPaymentBatch", method: "POST", path: "/v1/payments/batch", successStatus: 200, data: zod.zCreatePaymentBatchData, response: zod.zCreatePaymentBatchResponse },
} as const;

export type RouteKey = keyof typeof routes;
