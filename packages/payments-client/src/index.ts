export type { ExportFormat } from "@payspec/client-core";
export {
  ApiError,
  addDecimalAmounts,
  ConfigurationError,
  currencyExponent,
  formatMinorUnits,
  fromMinorUnits,
  NetworkError,
  PayspecError,
  ProtocolError,
  RequestValidationError,
  ResponseValidationError,
  type RetryOptions,
  TimeoutError,
  toMinorUnits,
} from "@payspec/client-core";
export { paymentCsvColumns } from "@payspec/payments-zod";
export { type CreateManyOutcome, MAX_BATCH_SIZE } from "./batch.js";
export {
  type CreatePaymentOptions,
  createPaymentsClient,
  type PaymentsClient,
  type PaymentsClientOptions,
} from "./create-payments-client.js";
export { PaymentsApiError, type PaymentsErrorCode, type PaymentsFieldError } from "./errors.js";
export { writePayments } from "./export.js";
export { specProvenance } from "./generated/provenance.gen.js";
export { AmbiguousReferenceError, mayHaveBeenStored } from "./lost-answers.js";
export type { ReconciledOutcome } from "./reconcile.js";
export type * from "./types.js";
