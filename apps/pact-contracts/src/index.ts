export { crossCheckPact, type PactFile, type PactInteraction } from "./pact-vs-spec.js";
export { pactsDir } from "./pacts-dir.js";
