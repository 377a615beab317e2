import type { CheckResult } from "../../src/index.js";

/**
 * The triage of every failure the verifier reports on real servers (see the README's "Proven on real
 * servers"): each kind below is a true positive, a place where the server and the spec its own
 * authors publish disagree, checked by hand on the answers. A failure that fits none of them is
 * untriaged, and the test that runs the server fails on it: a new false positive cannot slip in.
 *
 * What is deliberately absent: 429 and 503 (a rate limit or a mode is the server pacing the run),
 * timeouts and hang-ups (the network, not the contract), and an undeclared 401/403 (a credential's
 * scope, a warning in every check).
 */
export const TRUE_POSITIVE_KINDS: readonly { kind: string; matches: (v: Violation, id: string) => boolean }[] = [
  {
    kind: "a server error (5xx) for a request the spec allows",
    matches: (v) => v.expected === "no 5xx for a request the spec allows" && /^50[02] /.test(v.actual),
  },
  {
    kind: "a server error (5xx) for a request breaking one of the spec's constraints, where a 4xx is owed",
    matches: (v, id) => id.startsWith("negative.") && /^5(0[0-2]|0[4-9]|[1-9]\d) /.test(v.actual),
  },
  {
    kind: "the connection closed before the client could read the answer (no lingering close, RFC 9112 §9.6)",
    matches: (v) => v.actual === "the server closed the connection before answering" && v.expected.includes("RFC 9112"),
  },
  {
    kind: "a status the spec does not declare for that operation",
    matches: (v) => /: status (?!401|403|429|503)\d{3} is not declared \(declared: /.test(v.actual),
  },
  {
    kind: "an answer whose body or header breaks the spec's schema",
    matches: (v) =>
      v.expected === "a response that conforms to the spec" &&
      /: (\d{3} body|header \S+) \S+ must /.test(v.actual) &&
      !/^(429|503) /.test(v.actual),
  },
  {
    // WireMock's importStubMappings declares no body yet answers 422 "No content to map"; Unleash's
    // getProfile answers an API token 400 "User id is missing" where a 401/403 is owed.
    kind: "a request with nothing in it but credentials refused as bad input (400, 422)",
    matches: (v) =>
      v.expected.startsWith("a request with no parameters and no body accepted") &&
      /: 4(00|22) /.test(` ${v.actual.replace(/^every valid request was refused: /, ": ")}`),
  },
  {
    kind: "a content type the spec does not declare for that status",
    matches: (v) => /: content type ".*" is not declared for \d{3} /.test(v.actual),
  },
  {
    kind: "an operation the spec secures (its own or the global security) answers without valid credentials",
    matches: (v, id) => id.startsWith("auth.") && /for (missing|invalid) credentials$/.test(v.expected),
  },
  {
    kind: "a request breaking one of the spec's constraints accepted (2xx)",
    matches: (v, id) => id.startsWith("negative.") && /^2\d\d /.test(v.actual),
  },
  {
    kind: "every valid request refused with a status the spec does not declare",
    matches: (v) =>
      v.expected.startsWith("valid data accepted") &&
      /^every valid request was refused: (?!401|403|429|503)4\d\d /.test(v.actual),
  },
  {
    kind: "a credential the run sent returned in a field or header the spec does not declare",
    matches: (v, id) => id === "sensitive.credentials" && v.actual.startsWith("a credential the run sent came back"),
  },
];

interface Violation {
  readonly expected: string;
  readonly actual: string;
}

/** Each failing or erroring check's first violation that no true-positive kind explains, by check id. */
export function untriaged(results: readonly CheckResult[]): string[] {
  const left: string[] = [];
  for (const result of results) {
    if (result.status === "error") left.push(`${result.id}: could not complete: ${result.note ?? ""}`);
    if (result.status !== "failed") continue;
    for (const v of result.violations) {
      if (!TRUE_POSITIVE_KINDS.some((k) => k.matches(v, result.id)))
        left.push(`${result.id}: expected ${v.expected}; got ${v.actual}`);
    }
  }
  return left;
}

/** The kind a failing check's first violation is of ("untriaged" when none explains it). */
export function kindOf(result: CheckResult): string {
  const first = result.violations[0];
  return (first && TRUE_POSITIVE_KINDS.find((k) => k.matches(first, result.id))?.kind) ?? "untriaged";
}

/** How many failing checks each kind explains (a check counts once, by its first violation). */
export function tally(results: readonly CheckResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) {
    if (result.status !== "failed" || !result.violations[0]) continue;
    const kind = kindOf(result);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
