import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The hand-written specs everything is generated from. `name` is the file stem under specs/. */
export interface SpecSource {
  readonly name: "payments-accounts" | "card-gateway";
  /** Repository-relative path of the hand-written spec. */
  readonly path: string;
}

export const specSources: readonly SpecSource[] = [
  { name: "payments-accounts", path: "specs/payments-accounts.openapi.yaml" },
  { name: "card-gateway", path: "specs/card-gateway.openapi.yaml" },
];
