export {
  ApiFailure,
  type ApiName,
  apiOf,
  type FailureKind,
  type FailureOptions,
  type FieldError,
} from "./api-failure.js";
export { type ApiServerOptions, createApiServer } from "./api-server.js";
export { basicCredentials, credentialsFor } from "./authorization.js";
export {
  type CardNumberMatch,
  containsCardNumber,
  findCardNumbers,
  maskCardNumbers,
  passesLuhn,
  redactCardData,
  redactCardValue,
} from "./card-number-masking.js";
export { assertChargeTransactionType } from "./card-transaction-types.js";
export { dailyReportFile, type ReportedPayment } from "./daily-report-file.js";
export {
  type AllowedMethods,
  type FailureOf,
  registerErrorHandling,
  send,
  sendMethodNotAllowed,
} from "./error-handler.js";
export { actBeforeHandling, type FaultHookOptions, type FaultStrike, registerFaultHooks } from "./fault-actions.js";
export { FAULT_DEFAULTS, FAULT_LIMITS, FAULT_NAMES, FAULTS, type FaultName, isFaultName } from "./fault-catalogue.js";
export { BODY_LIMIT_BYTES, registerJsonBodyParser } from "./json-body-parser.js";
export { MAX_JSON_NESTING, tooDeepAt } from "./json-nesting.js";
export { type JsonErrorPosition, jsonErrorOffset, jsonErrorPosition, positionOf } from "./json-syntax-error.js";
export { registerRequestLog, requestLogger } from "./request-log.js";
export { coerceNumbers, type FieldProblems, parseRequest, validateFields } from "./request-validation.js";
export { type MatchedRoute, type RouteMatcher, routeMatcher } from "./route-matcher.js";
export { seededRandom } from "./seeded-random.js";
export { parseServerArgs, portNumber, type ServerArgs } from "./server-cli-args.js";
export { StartupProblem, startupProblemMessage } from "./startup-errors.js";
export { assertStorableText, firstStringField, firstUnstorableField, isStorableText } from "./string-fields.js";
export { firstXmlUnsafeField, isXmlSafe, xmlSafeText } from "./xml-safe-text.js";
