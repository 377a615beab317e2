import { readdirSync } from "node:fs";
import { defineConfig } from "tsdown";
import { cliBuild } from "../../tsdown.base.ts";

// Each feature's PostgreSQL migrations (src/<feature>/migrations/*.sql) are read at run time; a build
// copies them beside the bundles, one folder per feature (dist/migrations/<feature>/).
const migrations = readdirSync("src", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(`src/${entry.name}`).includes("migrations"))
  .map((entry) => ({ from: `src/${entry.name}/migrations/*.sql`, to: `dist/migrations/${entry.name}` }));

export default defineConfig(cliBuild.map((build) => ({ ...build, copy: migrations })));
