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
export {
  type CardGatewayClient,
  type CardGatewayClientOptions,
  createCardGatewayClient,
} from "./create-card-gateway-client.js";
export { CardGatewayApiError, type CardGatewayErrorCode } from "./errors.js";
export { specProvenance } from "./generated/provenance.gen.js";
export { parseDailyReport } from "./lazy-daily-report.js";
export { ReportFormatError } from "./report-format-error.js";
export type * from "./types.js";
