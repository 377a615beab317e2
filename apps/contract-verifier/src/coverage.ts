import type { ResponseChecker } from "@payspec/specs";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch"];

/** One operation's line of the coverage report. */
export interface OperationCoverage {
  readonly api: string;
  readonly operation: string;
  /** Declared response statuses (`default` and `4XX` as written), and those some request of the run received. */
  readonly declared: readonly string[];
  readonly seen: readonly string[];
  /** Constraints of the request a negative case broke, out of those the negative check found. */
  readonly constraintsExercised: number;
  readonly constraintsFound: number;
}

export interface CoverageReport {
  readonly operations: readonly OperationCoverage[];
  /** Declared statuses seen plus constraints exercised, over declared statuses plus constraints found. */
  readonly covered: number;
  readonly total: number;
  readonly percent: number;
}

interface Tracked {
  readonly api: string;
  readonly spec: Node;
  readonly checker: ResponseChecker;
}

/**
 * What the run exercised, Specmatic-style: for every operation, which of its declared statuses an
 * answer had, and how many of its request constraints a negative case broke.
 */
export class CoverageRecorder {
  readonly #apis: Tracked[] = [];
  readonly #seen = new Map<string, Set<string>>();
  readonly #constraints = new Map<string, { found: number; exercised: Set<string> }>();

  track(api: string, spec: object, checker: ResponseChecker): void {
    this.#apis.push({ api, spec: spec as Node, checker });
  }

  #responses(api: string, template: string, method: string): Node {
    const tracked = this.#apis.find((a) => a.api === api);
    return tracked?.spec.paths?.[template]?.[method.toLowerCase()]?.responses ?? {};
  }

  /** Records the answer to a request: the declared status it stands for, if any. */
  answered(api: string, method: string, path: string, status: number): void {
    const operation = this.#apis.find((a) => a.api === api)?.checker.operationFor(method, path);
    if (!operation) return;
    const responses = this.#responses(api, operation.template, method);
    const code = String(status);
    const range = `${code[0]}XX`;
    const declared =
      code in responses ? code : range in responses ? range : "default" in responses ? "default" : undefined;
    if (!declared) return;
    const key = `${api} ${operation.method} ${operation.template}`;
    const seen = this.#seen.get(key) ?? new Set<string>();
    seen.add(declared);
    this.#seen.set(key, seen);
  }

  /** A negative check found `found` constraints of the operation to break and broke `label`. */
  constraint(api: string, method: string, template: string, found: number, label?: string): void {
    const key = `${api} ${method.toUpperCase()} ${template}`;
    const entry = this.#constraints.get(key) ?? { found, exercised: new Set<string>() };
    entry.found = Math.max(entry.found, found);
    if (label) entry.exercised.add(label);
    this.#constraints.set(key, entry);
  }

  report(): CoverageReport {
    const operations: OperationCoverage[] = [];
    for (const { api, spec } of this.#apis) {
      for (const [template, item] of Object.entries<Node>(spec.paths ?? {})) {
        for (const method of METHODS.filter((m) => item[m])) {
          const key = `${api} ${method.toUpperCase()} ${template}`;
          const constraints = this.#constraints.get(key);
          operations.push({
            api,
            operation: `${method.toUpperCase()} ${template}`,
            declared: Object.keys(item[method].responses ?? {}),
            seen: [...(this.#seen.get(key) ?? [])].sort(),
            constraintsExercised: constraints?.exercised.size ?? 0,
            constraintsFound: constraints?.found ?? 0,
          });
        }
      }
    }
    const total = operations.reduce((n, o) => n + o.declared.length + o.constraintsFound, 0);
    const covered = operations.reduce((n, o) => n + o.seen.length + o.constraintsExercised, 0);
    return { operations, covered, total, percent: total === 0 ? 100 : (100 * covered) / total };
  }
}

/** The coverage table for the console: one line per operation. */
export function coverageTable(coverage: CoverageReport): string {
  const width = Math.max(9, ...coverage.operations.map((o) => o.operation.length));
  const lines = [`  ${"operation".padEnd(width)}  statuses seen / declared          constraints broken`];
  for (const o of coverage.operations) {
    const missed = o.declared.filter((s) => !o.seen.includes(s));
    const statuses = `${o.seen.join(" ") || "none"}${missed.length ? ` (not seen: ${missed.join(" ")})` : ""}`;
    lines.push(
      `  ${o.operation.padEnd(width)}  ${statuses.padEnd(32)}  ${o.constraintsExercised}/${o.constraintsFound}`,
    );
  }
  lines.push(
    `  coverage ${coverage.percent.toFixed(1)}% (${coverage.covered} of ${coverage.total} statuses and constraints)`,
  );
  return lines.join("\n");
}
