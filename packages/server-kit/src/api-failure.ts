import { maskCardNumbers } from "./card-number-masking.js";

/** Reasons a request fails, shared by both APIs; each API renders them in its own error shape. */
export type FailureKind =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "account_not_found"
  | "currency_mismatch"
  | "payment_not_cancellable"
  | "internal_error"
  | "service_unavailable";

const STATUS: Record<FailureKind, number> = {
  invalid_request: 400,
  account_not_found: 400,
  currency_mismatch: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payment_not_cancellable: 409,
  internal_error: 500,
  service_unavailable: 503,
};

/** The gateway's integer codes (see the gateway spec's error table). */
const GATEWAY_CODE: Partial<Record<FailureKind, number>> = {
  invalid_request: 6001,
  unauthorized: 1001,
  forbidden: 1003,
  not_found: 4004,
  internal_error: 5000,
  service_unavailable: 5003,
};

/** One invalid field of a request, as the payments API's `errors` list shows it. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export interface FailureOptions {
  /** The field, parameter or header at fault. */
  readonly param?: string;
  /** The gateway's integer code, when the kind's default is not the right one. */
  readonly gatewayCode?: number;
  /** The HTTP status, when the kind's default is not the right one (405, 431). */
  readonly status?: number;
  /** Every invalid field, when validation found them (the payments API lists them; the gateway's message names them). */
  readonly errors?: readonly FieldError[];
  /** Seconds the caller should wait before sending the request again (a 503's or 429's `Retry-After`). */
  readonly retryAfterSeconds?: number;
}

/**
 * A failure a handler throws; the error handler renders it in the shape of the API that was called.
 * Anything that could be a card number is masked in the message and param here, once, because
 * messages name what a caller sent (a path, a key) and a caller may have sent a card number there.
 */
export class ApiFailure extends Error {
  readonly status: number;
  readonly options: FailureOptions;

  constructor(
    readonly kind: FailureKind,
    message: string,
    options: FailureOptions = {},
  ) {
    super(maskCardNumbers(message));
    this.options = {
      ...options,
      ...(options.param === undefined ? {} : { param: maskCardNumbers(options.param) }),
      ...(options.errors === undefined
        ? {}
        : {
            errors: options.errors.map((e) => ({
              field: maskCardNumbers(e.field),
              message: maskCardNumbers(e.message),
            })),
          }),
    };
    this.status = options.status ?? STATUS[kind];
  }

  /** The payments API's `{code, message, param?, errors?}`. */
  paymentsBody(): { code: FailureKind; message: string; param?: string; errors?: readonly FieldError[] } {
    return {
      code: this.kind,
      message: this.message,
      ...(this.options.param ? { param: this.options.param } : {}),
      ...(this.options.errors ? { errors: this.options.errors } : {}),
    };
  }

  /** The gateway's `{code, message}`. */
  gatewayBody(): { code: number; message: string } {
    return { code: this.options.gatewayCode ?? GATEWAY_CODE[this.kind] ?? 6001, message: this.message };
  }
}

export type ApiName = "payments" | "gateway" | "control";

/** Which API a path belongs to; their paths never overlap. */
export function apiOf(path: string): ApiName {
  if (path.startsWith("/api/") || path.startsWith("/auth/")) return "gateway";
  if (path.startsWith("/_sandbox/")) return "control";
  return "payments";
}
