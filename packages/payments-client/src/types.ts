import type { components, paths } from "./generated/openapi.gen.js";

export type { components, paths };
export type Account = components["schemas"]["Account"];
export type Payment = components["schemas"]["Payment"];
export type PaymentCreate = components["schemas"]["PaymentCreate"];
export type PaymentPage = components["schemas"]["PaymentPage"];
export type PaymentStatus = components["schemas"]["PaymentStatus"];
export type PaymentBatchResult = components["schemas"]["PaymentBatchResult"];
export type PaymentsApiErrorBody = components["schemas"]["Error"];
export type ListPaymentsQuery = NonNullable<paths["/v1/payments"]["get"]["parameters"]["query"]>;
