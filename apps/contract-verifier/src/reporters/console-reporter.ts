import type { CheckResult, Violation } from "../check.js";
import type { VerificationReport } from "../runner.js";

const MARK: Record<CheckResult["status"], string> = { passed: "✓", failed: "✗", skipped: "-", error: "!" };

/** One progress line per finished check; on a TTY the counter is kept on one updating line. */
export function progressLine(result: CheckResult, index: number, total: number, tty: boolean): string {
  const line = `${MARK[result.status]} ${result.id}  ${result.durationMs.toFixed(0)} ms, ${result.requests} requests${result.note ? ` (${result.note})` : ""}`;
  return tty ? `\r\x1b[2K[${index + 1}/${total}] ${line}\n` : `${line}\n`;
}

export function formatViolation(v: Violation): string {
  const request = v.request
    ? `\n    request:  ${v.request.method} ${v.request.path}${v.request.body ? ` ${v.request.body.slice(0, 300)}` : ""}`
    : "";
  const reproduce = v.reproduce ? `\n    reproduce: ${v.reproduce.slice(0, 600)}` : "";
  const rerun = v.rerun ? `\n    re-run:   payspec-verify <same target> ${v.rerun}` : "";
  return `  ✗ ${v.check} — ${v.operation}${request}\n    expected: ${v.expected}\n    actual:   ${v.actual}${reproduce}${rerun}`;
}

/** The closing summary: counts, slowest checks, and every violation with its request. */
export function summary(report: VerificationReport): string {
  const failures = report.results.filter((r) => r.status === "failed" || r.status === "error");
  const lines = [
    "",
    `payspec verify — profile ${report.profile}, seed ${report.seed}, shard ${report.shard}, ${(report.durationMs / 1000).toFixed(1)} s`,
    ...Object.entries(report.target).map(([api, url]) => `  ${api}: ${url}`),
    "",
    "  status    checks",
    ...(["passed", "failed", "error", "skipped"] as const).map(
      (s) => `  ${s.padEnd(8)}  ${String(report.counts[s]).padStart(6)}`,
    ),
  ];
  if (failures.length > 0) {
    lines.push("", "Violations:");
    for (const f of failures) {
      if (f.violations.length === 0) lines.push(`  ! ${f.id}: ${f.note ?? "error"}`);
      for (const v of f.violations.slice(0, 20)) lines.push(formatViolation(v));
      if (f.violations.length > 20) lines.push(`  … and ${f.violations.length - 20} more in ${f.id}`);
    }
  }
  lines.push(
    "",
    `${report.counts.passed} passed, ${report.counts.failed + report.counts.error} failed${report.counts.skipped ? `, ${report.counts.skipped} skipped` : ""}`,
  );
  return lines.join("\n");
}
