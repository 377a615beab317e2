import { defineConfig } from "tsdown";
import { packageBuild } from "../../tsdown.base.ts";

export default defineConfig({
  ...packageBuild,
  // openapi-fetch's CommonJS build sets `exports.default` without `__esModule`, so from `require`
  // its default import is the whole module, not createClient. Bundled, it needs no interop.
  deps: { alwaysBundle: ["openapi-fetch"] },
});
