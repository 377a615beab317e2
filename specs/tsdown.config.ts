import { defineConfig } from "tsdown";
import { attw, packageBuild } from "../tsdown.base.ts";

export default defineConfig({
  ...packageBuild,
  // The YAML specs are exported as files for tools (Prism, Spectral), not as modules with types.
  attw: attw({ excludeEntrypoints: [/\.yaml$/] }),
});
