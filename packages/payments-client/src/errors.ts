import { ApiError } from "@payspec/client-core";
import type { PaymentsApiErrorBody } from "./types.js";

/** The payments API's error codes, from the spec's `Error.code` enum. */
export type PaymentsErrorCode = PaymentsApiErrorBody["code"];

/**
 * A non-2xx answer of the payments API. `code` is typed as the spec's codes; a code the spec does
 * not list yet still arrives as it was sent (treat it like its HTTP status, as the spec says).
 */
/** One invalid field, as the payments API lists them in `errors`. */
export type PaymentsFieldError = NonNullable<PaymentsApiErrorBody["errors"]>[number];

const isFieldError = (value: unknown): value is PaymentsFieldError =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { field?: unknown }).field === "string" &&
  typeof (value as { message?: unknown }).message === "string";

export class PaymentsApiError extends ApiError<PaymentsErrorCode> {
  override readonly name = "PaymentsApiError";

  /** Every invalid field the API named (its `errors` list): show each beside its field. Empty when none. */
  get fieldErrors(): readonly PaymentsFieldError[] {
    const errors = (this.body as { errors?: unknown } | null | undefined)?.errors;
    return Array.isArray(errors) ? errors.filter(isFieldError) : [];
  }
}
