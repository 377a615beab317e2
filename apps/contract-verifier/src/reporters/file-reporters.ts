import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import junitModule, { type Builder } from "junit-report-builder";
import type { VerificationReport } from "../runner.js";
import { formatViolation } from "./console-reporter.js";

// At runtime the CommonJS default export is the builder; its types describe a module namespace.
const junit = junitModule as unknown as Builder;

/** JUnit XML: one suite per API, one test case per check, violations as the failure text. */
export async function writeJunit(report: VerificationReport, file: string): Promise<void> {
  const builder = junit.newBuilder().name(`payspec verify (${report.profile})`);
  for (const api of ["payments", "gateway"] as const) {
    const results = report.results.filter((r) => r.api === api);
    if (results.length === 0) continue;
    const suite = builder
      .testSuite()
      .name(`payspec contract: ${api}`)
      .property("profile", report.profile)
      .property("seed", String(report.seed));
    for (const result of results) {
      const testCase = suite
        .testCase()
        .className(`${api}.${result.profile}`)
        .name(result.id)
        .time(result.durationMs / 1000);
      if (result.status === "skipped") testCase.skipped();
      if (result.status === "failed") {
        testCase
          .failure(`${result.violations.length} violation(s): ${result.violations[0]?.expected ?? ""}`)
          .standardOutput(result.violations.map(formatViolation).join("\n"));
      }
      if (result.status === "error") testCase.error(result.note ?? "error");
    }
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, builder.build());
}

export async function writeJson(report: VerificationReport, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
