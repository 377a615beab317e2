import { fileURLToPath } from "node:url";

/** The hand-written specs the gate checks, by path. */
export const specFiles: readonly string[] = [
  fileURLToPath(new URL("../../../specs/payments-accounts.openapi.yaml", import.meta.url)),
  fileURLToPath(new URL("../../../specs/card-gateway.openapi.yaml", import.meta.url)),
];
