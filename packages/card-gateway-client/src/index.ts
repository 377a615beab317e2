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
export { parseDailyReport, ReportFormatError } from "./daily-report.js";
export { CardGatewayApiError, type CardGatewayErrorCode } from "./errors.js";
export { specProvenance } from "./generated/provenance.gen.js";
export type * from "./types.js";
