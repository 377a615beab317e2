export { type ApiErrorFactory, apiErrorFromResponse, markRetried } from "./api-error-from-response.js";
export {
  CALL_TIMEOUT_HEADER,
  type CallOptions,
  callInit,
  type ResponseInfo,
  type WithResponse,
  withResponse,
} from "./call-options.js";
export {
  ApiError,
  type ApiErrorDetails,
  ConfigurationError,
  formatIssues,
  NetworkError,
  PayspecError,
  ProtocolError,
  RequestValidationError,
  ResponseValidationError,
  requireCredential,
  TimeoutError,
  toPayspecError,
  type ValidationIssue,
} from "./errors.js";
export {
  addDecimalAmounts,
  type ConversionOptions,
  currencyExponent,
  formatMinorUnits,
  fromMinorUnits,
  toMinorUnits,
} from "./money.js";
export {
  type RouteSchemas,
  resolveValidation,
  specMiddleware,
  type ValidationOptions,
} from "./openapi-fetch-middleware.js";
export { type ExportFormat, formulaSafeCell, writeRecords } from "./record-writer.js";
export { type FetchLike, type ResilientFetchOptions, resilientFetch } from "./resilient-fetch.js";
export { backoffDelay, isIdempotent, type RetryOptions, type RetryPolicy, retryPolicy } from "./retry-policy.js";
export { withTypedError, withTypedErrors } from "./typed-errors-client.js";
export { assertValidRequest, checkResponse } from "./validation.js";
