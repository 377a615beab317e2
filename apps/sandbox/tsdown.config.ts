import { defineConfig } from "tsdown";
import { cliBuild } from "../../tsdown.base.ts";

// The PostgreSQL migrations are read at run time from `./migrations` beside the module: next to the
// source in src/infrastructure/postgres, next to the bundles in dist.
const migrations = { from: "src/infrastructure/postgres/migrations/*.sql", to: "dist/migrations" };

export default defineConfig(cliBuild.map((build) => ({ ...build, copy: [migrations] })));
