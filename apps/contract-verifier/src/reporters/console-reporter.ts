import type { CheckResult, Violation } from "../check.js";
import { withoutBodyLength } from "../checks/expectations.js";
import type { CleanupReport } from "../created-records.js";
import type { VerificationReport } from "../runner.js";
import { SERVER_DOWN_CHECK } from "../server-down-result.js";

const MARK: Record<CheckResult["status"], string> = { passed: "✓", failed: "✗", skipped: "-", error: "!" };

/** Up to this many failing checks, the summary shows their violations in full; beyond, one line each. */
const DETAILED_FAILURES = 5;

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * What went wrong with a check, in one line: its note, or its first kind of violation, how often it
 * was seen, and how many other kinds there are (the same message N times is one kind, not N).
 */
export function reasonOf(result: CheckResult): string {
  const groups = distinctViolations(result);
  const first = groups[0];
  if (!first) return result.note ?? result.status;
  const times = first.count > 1 ? ` (${first.count} times)` : "";
  const others =
    groups.length > 1 ? ` (+${groups.length - 1} other kind${groups.length === 2 ? "" : "s"} of problem)` : "";
  return `expected ${first.violation.expected}; got ${first.violation.actual}${times}${others}`;
}

/** One progress line per finished check; on a TTY the counter is kept on one updating line. */
export function progressLine(result: CheckResult, index: number, total: number, tty: boolean): string {
  const why = result.status === "passed" ? "" : `  ${clip(reasonOf(result), 160)}`;
  const line = `${MARK[result.status]} ${result.id}  ${result.durationMs.toFixed(0)} ms, ${result.requests} requests${why}`;
  return tty ? `\r\x1b[2K[${index + 1}/${total}] ${line}\n` : `${line}\n`;
}

export function formatViolation(v: Violation): string {
  const request = v.request
    ? `\n    request:  ${v.request.method} ${v.request.path}${v.request.body ? ` ${v.request.body.slice(0, 300)}` : ""}`
    : "";
  const reproduce = v.reproduce ? `\n    reproduce: ${v.reproduce.slice(0, 600)}` : "";
  const rerun = v.rerun ? `\n    re-run:   payspec-verify ${v.rerun}` : "";
  return `  ✗ ${v.check} — ${v.operation}${request}\n    expected: ${v.expected}\n    actual:   ${v.actual}${reproduce}${rerun}`;
}

/** What makes two violations one kind of problem: the operation, what was expected and what came instead. */
const kindOfViolation = (v: Violation) => `${v.operation}|${v.expected}|${withoutBodyLength(v.actual)}`;

/** Violations of one check that say the same thing are shown once, with how many there were. */
function distinctViolations(result: CheckResult): { violation: Violation; count: number }[] {
  const groups = new Map<string, { violation: Violation; count: number }>();
  for (const v of result.violations) {
    const key = kindOfViolation(v);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { violation: v, count: 1 });
  }
  return [...groups.values()];
}

/** The closing line: the same four counts as the table, in words. */
export function closingLine(counts: VerificationReport["counts"]): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.error} errors, ${counts.skipped} skipped`;
}

/**
 * The closing summary: counts, then the failures. A few failing checks are shown in full (request,
 * expectation, answer, reproduction); many (a provider that is badly wrong) get one line each, and
 * the report files carry the details.
 */
export function summary(report: VerificationReport, reportFiles: readonly string[] = []): string {
  const failures = report.results.filter((r) => r.status === "failed" || r.status === "error");
  const lines = [
    "",
    report.mode === "pact"
      ? `payspec verify pact — ${report.pacts?.length ?? 0} pacts, ${report.results.length} interactions, ${(report.durationMs / 1000).toFixed(1)} s`
      : `payspec verify — profile ${report.profile}, seed ${report.seed}, shard ${report.shard}, ${(report.durationMs / 1000).toFixed(1)} s`,
    ...Object.entries(report.target).map(([api, url]) => `  ${api}: ${url}`),
    "",
    `  status    ${report.mode === "pact" ? "interactions" : "checks"}`,
    ...(["passed", "failed", "error", "skipped"] as const).map(
      (s) => `  ${s.padEnd(8)}  ${String(report.counts[s]).padStart(6)}`,
    ),
  ];
  const notRun = report.results.filter((r) => r.note?.startsWith("not run:")).length;
  if (notRun > 0) lines.push(`  (of the skipped, ${notRun} not run: the server stopped answering)`);
  if (report.coverage) {
    lines.push(
      "",
      `  coverage  ${report.coverage.percent.toFixed(1)}% (${report.coverage.covered}/${report.coverage.total})`,
    );
  }
  if (failures.length > 0 && failures.length <= DETAILED_FAILURES) {
    lines.push("", "Violations:");
    for (const f of failures) {
      if (f.violations.length === 0) lines.push(`  ! ${f.id}: ${f.note ?? "error"}`);
      const groups = distinctViolations(f);
      for (const { violation, count } of groups.slice(0, 10))
        lines.push(`${formatViolation(violation)}${count > 1 ? `\n    (${count} times)` : ""}`);
      if (groups.length > 10) lines.push(`  … and ${groups.length - 10} more kinds in ${f.id}`);
    }
  } else if (failures.length > DETAILED_FAILURES) {
    // The server falling over is the one finding that explains the rest: always in full.
    const down = failures.find((f) => f.id === SERVER_DOWN_CHECK);
    if (down) lines.push("", "The server stopped answering:", ...down.violations.map(formatViolation));
    lines.push(
      "",
      `Failures (one line per check; ${reportFiles.length ? `details in ${reportFiles.join(" and ")}` : "--json FILE or --junit FILE keeps every request and its curl reproduction"}):`,
    );
    for (const f of failures) lines.push(`  ${MARK[f.status]} ${f.id}: ${clip(reasonOf(f), 200)}`);
  }
  if (report.cleanup) lines.push("", ...cleanupLines(report.cleanup));
  if (report.warnings && report.warnings.length > 0) {
    lines.push("", "Warnings (about the spec or the run; they fail nothing):");
    for (const warning of report.warnings) lines.push(`  ! ${warning}`);
  }
  lines.push("", closingLine(report.counts));
  return lines.join("\n");
}

/** What the run created and deleted, and each record it left with why: a shared server's owners read it. */
export function cleanupLines(cleanup: CleanupReport): string[] {
  const left = cleanup.left.length;
  const head = cleanup.kept
    ? `Created records kept (--keep-created): ${left}; deleted by the run's own checks: ${cleanup.deleted}.`
    : `Cleanup${cleanup.interrupted ? " (the run was interrupted)" : ""}: deleted ${cleanup.deleted} record${cleanup.deleted === 1 ? "" : "s"} the run created; ${left === 0 ? "left none." : `left ${left}:`}`;
  const shown = cleanup.left
    .slice(0, 20)
    .map((r) => `  - ${r.path ?? r.madeBy} (id ${r.id}, made by ${r.madeBy}): ${r.why}`);
  return [head, ...shown, ...(left > 20 ? [`  … and ${left - 20} more (every one in the JSON report)`] : [])];
}
