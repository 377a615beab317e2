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
