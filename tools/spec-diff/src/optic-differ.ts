import { resolve } from "node:path";
import { denormalize, parseOpenAPIWithSourcemap } from "@useoptic/openapi-io";
import { compareSpecs } from "@useoptic/openapi-utilities";
import { RuleRunner } from "@useoptic/rulesets-base";
import { BreakingChangesRuleset } from "@useoptic/standard-rulesets";
import type { SpecChange, SpecDiffer } from "./spec-change.js";
import { tightenedRequestBounds } from "./tightened-bounds.js";

type Json = Record<string, unknown>;

async function load(file: string) {
  const parsed = denormalize(await parseOpenAPIWithSourcemap(resolve(file)), "3.1.x");
  const sourcemap = (parsed.sourcemap as { serialize?: () => unknown }).serialize?.() ?? parsed.sourcemap;
  return { jsonLike: parsed.jsonLike, sourcemap, isEmptySpec: false };
}

/**
 * The Optic implementation: Optic's standard breaking-changes ruleset (removed operations, removed
 * response fields, new required request fields, narrowed enums, …) over its OpenAPI 3.1 diff, plus
 * payspec's rule for request bounds that tightened, which Optic's ruleset does not check.
 */
export class OpticDiffer implements SpecDiffer {
  async compare(beforeFile: string, afterFile: string): Promise<SpecChange[]> {
    const [before, after] = await Promise.all([load(beforeFile), load(afterFile)]);
    const result = await compareSpecs(
      before as never,
      after as never,
      new RuleRunner([new BreakingChangesRuleset()]),
      {},
    );
    const breaking: SpecChange[] = result.results
      .filter((r) => !r.passed && !r.exempted)
      .map((r) => ({
        severity: "breaking",
        rule: `optic: ${r.name}`,
        message: r.error ?? r.name,
        where: r.where ?? "",
        pointer: r.location?.jsonPath ?? "",
      }));
    breaking.push(
      ...tightenedRequestBounds(before.jsonLike as unknown as Json, after.jsonLike as unknown as Json, result.diffs),
    );
    // Every other difference Optic found is safe: listed so reviewers see the whole change.
    const related = (pointer: string) =>
      breaking.some((b) => b.pointer && (pointer.startsWith(b.pointer) || b.pointer.startsWith(pointer)));
    const safe: SpecChange[] = result.diffs
      .map((d) => ({
        pointer: d.after ?? d.before ?? "",
        kind: d.before === undefined ? "added" : d.after === undefined ? "removed" : "changed",
      }))
      .filter((d) => d.pointer.startsWith("/paths/") && !related(d.pointer))
      .map((d) => ({ severity: "safe", rule: "optic: diff", message: d.kind, where: d.pointer, pointer: d.pointer }));
    return [...breaking, ...safe];
  }
}
