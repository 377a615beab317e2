export { defaultBase, fileAtRef } from "./base-ref.js";
export { catalogueTable } from "./catalogue-table.js";
export {
  type Affected,
  CHANGE_CATALOGUE,
  type ChangeClass,
  changeClass,
  type SpecDoc,
  type SpecName,
} from "./change-catalogue.js";
export {
  type Bump,
  type ChangeBumps,
  changeBumps,
  type MissingMajor,
  packagesMissingMajor,
  packagesOfSpec,
} from "./changeset-gate.js";
export { PayspecDiffer } from "./payspec-differ.js";
export { type GateResult, runGate } from "./run-gate.js";
export type { SpecChange, SpecDiffer } from "./spec-change.js";
