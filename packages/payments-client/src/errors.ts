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

const isErrorBody = (value: unknown): value is PaymentsApiErrorBody =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { code?: unknown }).code === "string" &&
  typeof (value as { message?: unknown }).message === "string";

export class PaymentsApiError extends ApiError<PaymentsErrorCode> {
  override readonly name = "PaymentsApiError";

  /** The API's error body, typed as the spec's `Error`; undefined when the answer was not one (a proxy's page). */
  get errorBody(): PaymentsApiErrorBody | undefined {
    return isErrorBody(this.body) ? this.body : undefined;
  }

  /** The request field the error is about (`param`), such as `"currency"`; undefined when none is named. */
  get param(): string | undefined {
    const param = this.errorBody?.param;
    return typeof param === "string" ? param : undefined;
  }

  /**
   * Every invalid field the API named: its `errors` list, or else the one field `param` names with the
   * error's message. Show each beside its field. Empty when the error is about no field.
   */
  get fieldErrors(): readonly PaymentsFieldError[] {
    const errors = this.errorBody?.errors;
    if (Array.isArray(errors) && errors.length > 0) return errors.filter(isFieldError);
    const param = this.param;
    return param === undefined ? [] : [{ field: param, message: this.apiMessage ?? "" }];
  }
}
