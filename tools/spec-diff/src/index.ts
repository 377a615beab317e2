export { defaultBase, fileAtRef } from "./base-ref.js";
export { type Bump, packagesMissingMajor, packagesOfSpec, pendingBumps } from "./changeset-gate.js";
export { OpticDiffer } from "./optic-differ.js";
export { type GateResult, runGate } from "./run-gate.js";
export type { SpecChange, SpecDiffer } from "./spec-change.js";
