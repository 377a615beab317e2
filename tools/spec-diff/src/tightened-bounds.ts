import type { SpecChange } from "./spec-change.js";

type Json = Record<string, unknown>;

interface Diff {
  readonly before?: string;
  readonly after?: string;
}

/** A larger lower bound or a smaller upper bound rejects requests that used to pass. */
const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

function at(doc: Json, pointer: string): unknown {
  let node: unknown = doc;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    node = typeof node === "object" && node !== null ? (node as Json)[key] : undefined;
  }
  return node;
}

function describeWhere(pointer: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  return parts[0] === "paths" ? `${(parts[2] ?? "").toUpperCase()} ${parts[1]} ${parts.slice(3).join(".")}` : pointer;
}

/**
 * payspec's own rule, applied to the diff Optic computed: in a request (a parameter or a request
 * body), a bound that moved inwards, a new bound, or a changed pattern is breaking: some request
 * that was valid is now refused. Responses may tighten freely.
 */
export function tightenedRequestBounds(before: Json, after: Json, diffs: readonly Diff[]): SpecChange[] {
  const changes: SpecChange[] = [];
  for (const diff of diffs) {
    const pointer = diff.after ?? diff.before;
    if (!pointer || !/\/(parameters|requestBody)\//.test(pointer)) continue;
    const keyword = pointer.split("/").pop() ?? "";
    if (!LOWER.has(keyword) && !UPPER.has(keyword) && keyword !== "pattern") continue;
    const was = diff.before === undefined ? undefined : at(before, diff.before);
    const now = diff.after === undefined ? undefined : at(after, diff.after);
    if (now === undefined) continue;
    const tightened =
      was === undefined ||
      (keyword === "pattern" && was !== now) ||
      (LOWER.has(keyword) && Number(now) > Number(was)) ||
      (UPPER.has(keyword) && Number(now) < Number(was));
    if (tightened) {
      changes.push({
        severity: "breaking",
        rule: "payspec: bound tightened",
        message: `${keyword} ${was === undefined ? "added" : `changed from ${JSON.stringify(was)}`} to ${JSON.stringify(now)}: requests that were valid are now refused.`,
        where: describeWhere(pointer),
        pointer,
      });
    }
  }
  return changes;
}
