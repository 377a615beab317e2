/** Reasons a request fails, shared by both APIs; each API renders them in its own error shape. */
export type FailureKind =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "account_not_found"
  | "currency_mismatch"
  | "payment_not_cancellable"
  | "internal_error";

const STATUS: Record<FailureKind, number> = {
  invalid_request: 400,
  account_not_found: 400,
  currency_mismatch: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payment_not_cancellable: 409,
  internal_error: 500,
};

/** The gateway's integer codes (see the gateway spec's error table). */
const GATEWAY_CODE: Partial<Record<FailureKind, number>> = {
  invalid_request: 6001,
  unauthorized: 1001,
  forbidden: 1003,
  not_found: 4004,
  internal_error: 5000,
};

/** A failure a handler throws; the error handler renders it in the shape of the API that was called. */
export class ApiFailure extends Error {
  readonly status: number;

  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly options: { readonly param?: string; readonly gatewayCode?: number } = {},
  ) {
    super(message);
    this.status = STATUS[kind];
  }

  /** The payments API's `{code, message, param?}`. */
  paymentsBody(): { code: FailureKind; message: string; param?: string } {
    return this.options.param
      ? { code: this.kind, message: this.message, param: this.options.param }
      : { code: this.kind, message: this.message };
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
