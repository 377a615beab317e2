export { ApiFailure, type ApiName, apiOf, type FailureKind } from "./api-failure.js";
export { dailyReportFile, type ReportedPayment } from "./daily-report-file.js";
export { registerErrorHandling, send } from "./error-handler.js";
export { BODY_LIMIT_BYTES, registerJsonBodyParser } from "./json-body-parser.js";
export { maskDigitRuns, registerRequestLog } from "./request-log.js";
export { coerceNumbers, parseRequest } from "./request-validation.js";
