import type { AttwOptions, UserConfig } from "tsdown";

/**
 * `pnpm start`, `pnpm mock` and `pnpm verify` build only to run: type declarations and the publishing
 * checks (publint, arethetypeswrong) belong to `pnpm build`, CI and release:dry, not to a newcomer's
 * first start. (The setting is part of turbo's cache key, so neither build stands in for the other.)
 */
const publishingChecks = process.env.PAYSPEC_BUILD_TO_RUN !== "1";

/**
 * arethetypeswrong settings: node16 resolution (ESM and CJS) must work for every entry point (plus a
 * package's own exclusions); off when building only to run.
 */
export function attw(extra: Partial<AttwOptions> = {}): AttwOptions | false {
  return publishingChecks ? { profile: "node16", level: "error", ...extra } : false;
}

/**
 * The one build config every published package shares: ESM + CJS with types, checked by publint
 * and arethetypeswrong on each build so a broken exports map never ships.
 */
export const packageBuild: UserConfig = {
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: publishingChecks,
  sourcemap: true,
  clean: true,
  shims: true,
  publint: publishingChecks,
  attw: attw(),
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
