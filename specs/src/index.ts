import { fileURLToPath } from "node:url";
import cardGateway from "../bundled/card-gateway.openapi.json" with { type: "json" };
import paymentsAccounts from "../bundled/payments-accounts.openapi.json" with { type: "json" };

/** The bundled payments-and-accounts spec (all refs internal), as a plain object. */
export const paymentsAccountsSpec = paymentsAccounts;
/** The bundled card gateway spec (all refs internal), as a plain object. */
export const cardGatewaySpec = cardGateway;

export type SpecName = "payments-accounts" | "card-gateway";

/** Absolute paths of the spec files, for tools that read them from disk (Prism, Spectral, Redocly). */
export function specPath(name: SpecName, form: "yaml" | "json" = "yaml"): string {
  const file = form === "yaml" ? `../${name}.openapi.yaml` : `../bundled/${name}.openapi.json`;
  return fileURLToPath(new URL(file, import.meta.url));
}

export { type BoundaryCase, boundaryCases } from "./boundary-cases.js";
export { type Discriminated, discriminated, withDiscriminatorsApplied } from "./discriminator.js";
export { createResponseChecker, type Exchange, type Operation, type ResponseChecker } from "./response-checker.js";
export {
  type Disagreement,
  type RouteValidators,
  routeAgreementCases,
  schemaDisagreements,
} from "./schema-agreement.js";
export { resolveRef, type SpecExample, specExamples } from "./spec-examples.js";
export {
  createSpecValidator,
  IGNORED_NULLABLE,
  pointerOf,
  type SpecValidation,
  type SpecValidator,
  type SpecValidatorOptions,
} from "./spec-validator.js";
