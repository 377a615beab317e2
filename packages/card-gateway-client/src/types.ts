import type { components, paths } from "./generated/openapi.gen.js";

export type { components, paths };
export type CardPaymentRequest = components["schemas"]["CardPaymentRequest"];
export type CardPaymentResponse = components["schemas"]["CardPaymentResponse"];
export type CardPayment = components["schemas"]["CardPayment"];
export type PaymentLookupResponse = components["schemas"]["PaymentLookupResponse"];
export type PaymentLookup = components["schemas"]["PaymentLookup"];
export type AccessToken = components["schemas"]["AccessToken"];
export type GatewayErrorBody = components["schemas"]["Error"];
export type DailyTransactionsReportRow = components["schemas"]["DailyTransactionsReportRow"];
