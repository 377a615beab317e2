export type { Check, CheckResult, Violation } from "./check.js";
export { type ApiName, type Profile, parseOptions, type VerifyOptions } from "./options.js";
export { summary } from "./reporters/console-reporter.js";
export { writeJson, writeJunit } from "./reporters/file-reporters.js";
export { CannotRun, runVerification, type VerificationReport } from "./runner.js";
