export { paymentCsvColumns } from "./csv-columns.js";
export { specProvenance } from "./generated/provenance.gen.js";
export * from "./generated/routes.gen.js";
export * from "./generated/zod.gen.js";
