import type { AttwOptions, UserConfig } from "tsdown";

/** arethetypeswrong settings: node16 resolution (ESM and CJS) must work for every entry point. */
export const attwOptions: AttwOptions = { profile: "node16", level: "error" };

/**
 * The one build config every published package shares: ESM + CJS with types, checked by publint
 * and arethetypeswrong on each build so a broken exports map never ships.
 */
export const packageBuild: UserConfig = {
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  shims: true,
  publint: true,
  attw: attwOptions,
};

/**
 * Published apps: the library (ESM + CJS, as above) plus the command line, `src/cli.ts`, built as
 * ESM only (it awaits at top level) with its `#!/usr/bin/env node` line, so `bin` runs plain
 * JavaScript: `dist/cli.mjs`.
 */
export const cliBuild: UserConfig[] = [
  packageBuild,
  { entry: ["src/cli.ts"], format: ["esm"], dts: false, sourcemap: true, clean: false, publint: false },
];
