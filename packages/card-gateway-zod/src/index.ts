export { specProvenance } from "./generated/provenance.gen.js";
export * from "./generated/report-columns.gen.js";
export * from "./generated/routes.gen.js";
export * from "./generated/zod.gen.js";
