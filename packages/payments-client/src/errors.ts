import { ApiError } from "@payspec/client-core";
import type { PaymentsApiErrorBody } from "./types.js";

/** The payments API's error codes, from the spec's `Error.code` enum. */
export type PaymentsErrorCode = PaymentsApiErrorBody["code"];

/**
 * A non-2xx answer of the payments API. `code` is typed as the spec's codes; a code the spec does
 * not list yet still arrives as it was sent (treat it like its HTTP status, as the spec says).
 */
export class PaymentsApiError extends ApiError<PaymentsErrorCode> {
  override readonly name = "PaymentsApiError";
}
