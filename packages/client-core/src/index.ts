export { apiErrorFromResponse } from "./api-error-from-response.js";
export {
  ApiError,
  formatIssues,
  NetworkError,
  PayspecError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
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
export { type FetchLike, type ResilientFetchOptions, resilientFetch } from "./resilient-fetch.js";
export { backoffDelay, isIdempotent, type RetryOptions, type RetryPolicy, retryPolicy } from "./retry-policy.js";
export { assertValidRequest, checkResponse } from "./validation.js";
