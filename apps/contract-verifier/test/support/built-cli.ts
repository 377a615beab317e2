import { fileURLToPath } from "node:url";

/**
 * The CLI as users run it: the built `dist/cli.mjs` under plain node. Through tsx each run first
 * compiled the sources, about 1.4 s of a core more per run over some forty runs; `build-cli.ts` (the
 * suite's global setup) builds it first whenever a source is newer, so a test never runs stale code.
 */
export const CLI = fileURLToPath(new URL("../../dist/cli.mjs", import.meta.url));
