export type { Check, CheckResult, Violation } from "./check.js";
export { type ApiName, type Profile, parseOptions, UsageError, type VerifyOptions } from "./options.js";
export { loadPacts, type Pact, type PactInteraction, parsePact, UnreadablePact } from "./pact/pact-file.js";
export { crossCheckPact, interactionVsSpec } from "./pact/pact-vs-spec.js";
export { SANDBOX_PROVIDER_STATES, type StateSetup, setUpState } from "./pact/sandbox-provider-states.js";
export { summary } from "./reporters/console-reporter.js";
export { writeJson, writeJunit } from "./reporters/file-reporters.js";
export { CannotRun, runVerification, type VerificationReport } from "./runner.js";
