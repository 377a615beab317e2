import { defineConfig } from "tsdown";
import { cliBuild } from "../../tsdown.base.ts";

export default defineConfig(cliBuild);
