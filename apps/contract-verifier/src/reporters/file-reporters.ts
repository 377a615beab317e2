import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import junitModule, { type Builder } from "junit-report-builder";
import type { VerificationReport } from "../runner.js";
import { formatViolation } from "./console-reporter.js";

// At runtime the CommonJS default export is the builder; its types describe a module namespace.
const junit = junitModule as unknown as Builder;

const xmlAttribute = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * junit-report-builder writes a bare `<skipped/>`; CI test views show `<skipped message="…"/>`. Test
 * cases are written in report order, so the n-th `<skipped/>` is the n-th skipped result.
 */
function withSkipReasons(xml: string, report: VerificationReport): string {
  const reasons = ["payments", "gateway", "openapi"].flatMap((api) =>
    report.results.filter((r) => r.api === api && r.status === "skipped").map((r) => r.note ?? "skipped"),
  );
  let n = 0;
  return xml.replace(/<skipped\/>/g, () => `<skipped message="${xmlAttribute(reasons[n++] ?? "skipped")}"/>`);
}

/** JUnit XML: one suite per API, one test case per check, violations as the failure text. */
export async function writeJunit(report: VerificationReport, file: string): Promise<void> {
  const builder = junit.newBuilder().name(`payspec verify (${report.profile})`);
  for (const api of ["payments", "gateway", "openapi"] as const) {
    const results = report.results.filter((r) => r.api === api);
    if (results.length === 0) continue;
    const suite = builder
      .testSuite()
      .name(`payspec contract: ${api}`)
      .property("profile", report.profile)
      .property("seed", String(report.seed));
    for (const warning of report.warnings ?? []) suite.property("warning", warning);
    if (api === "openapi" && report.cleanup) {
      suite.property("created-and-deleted", String(report.cleanup.deleted));
      for (const left of report.cleanup.left)
        suite.property("left-on-server", `${left.path ?? left.madeBy} (id ${left.id}): ${left.why}`);
    }
    for (const result of results) {
      const testCase = suite
        .testCase()
        .className(`${api}.${result.profile}`)
        .name(result.id)
        .time(result.durationMs / 1000);
      if (result.status === "skipped") testCase.skipped().standardOutput(`skipped: ${result.note ?? ""}`);
      if (result.status === "failed") {
        testCase
          .failure(`${result.violations.length} violation(s): ${result.violations[0]?.expected ?? ""}`)
          .standardOutput(result.violations.map(formatViolation).join("\n"));
      }
      if (result.status === "error") testCase.error(result.note ?? "error");
      if (result.status === "passed" && result.warnings?.length)
        testCase.standardOutput(result.warnings.map((w) => `warning: ${w}`).join("\n"));
    }
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, withSkipReasons(builder.build(), report));
}

export async function writeJson(report: VerificationReport, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
