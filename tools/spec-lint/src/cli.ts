#!/usr/bin/env tsx
import { relative } from "node:path";
import { type Finding, spectralFindings } from "./lint-spec.js";
import { redoclyFindings } from "./redocly-lint.js";
import { specFiles } from "./spec-files.js";

/** The spec gate: both validators over both specs; any finding fails the run. */
async function main(): Promise<number> {
  const findings: Finding[] = [];
  for (const file of specFiles) {
    try {
      findings.push(...(await spectralFindings(file)), ...(await redoclyFindings(file)));
    } catch (error) {
      // A spec that does not parse is a finding too, named with the file, not a stack trace.
      const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
      findings.push({ file, tool: "redocly", rule: "parse", message: message ?? "unreadable", where: "" });
    }
  }
  for (const f of findings) {
    console.error(`${relative(process.cwd(), f.file)}: [${f.tool} ${f.rule}] ${f.message} at ${f.where}`);
  }
  console.log(
    `spec lint: ${specFiles.length} specs, ${findings.length} problems (Spectral oas+payspec, Redocly recommended-strict)`,
  );
  return findings.length === 0 ? 0 : 1;
}

process.exitCode = await main();
