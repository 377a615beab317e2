#!/usr/bin/env tsx
import { fileURLToPath } from "node:url";
import { gateCommand } from "./gate-command.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

process.exitCode = await gateCommand(process.argv.slice(2), process.env.PAYSPEC_REPO ?? repoRoot, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
