import readChangesets from "@changesets/read";
import { fileAtRef } from "./base-ref.js";
import type { SpecChange } from "./spec-change.js";

/** The packages generated from each spec: a breaking spec change is a breaking change for each. */
export const packagesOfSpec: Readonly<Record<string, readonly string[]>> = {
  "specs/payments-accounts.openapi.yaml": ["@payspec/specs", "@payspec/payments-zod", "@payspec/payments-client"],
  "specs/card-gateway.openapi.yaml": ["@payspec/specs", "@payspec/card-gateway-zod", "@payspec/card-gateway-client"],
};

export type Bump = "major" | "minor" | "patch" | "none";

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** What the change's own changesets bump: the strongest bump per package, and which file said so. */
export interface ChangeBumps {
  readonly bumps: ReadonlyMap<string, Bump>;
  /** For each package, the changeset file (`.changeset/<id>.md`) that gave it its strongest bump. */
  readonly files: ReadonlyMap<string, string>;
  /** Changesets that were pending before the change: they say nothing about it. */
  readonly ignored: readonly string[];
}

/**
 * The bumps of the changesets this change adds: those in .changeset/ (committed or not) that did not
 * exist at `base`. A changeset left pending from an earlier change, even a major one, does not count:
 * it speaks for that change, not this one (changesets' own `status --since=<base>`).
 */
export async function changeBumps(cwd: string, base: string): Promise<ChangeBumps> {
  const bumps = new Map<string, Bump>();
  const files = new Map<string, string>();
  const ignored: string[] = [];
  for (const changeset of await readChangesets(cwd)) {
    const file = `.changeset/${changeset.id}.md`;
    if (fileAtRef(cwd, base, file) !== undefined) {
      ignored.push(file);
      continue;
    }
    for (const release of changeset.releases) {
      if (RANK[release.type] > RANK[bumps.get(release.name) ?? "none"]) {
        bumps.set(release.name, release.type);
        files.set(release.name, file);
      }
    }
  }
  return { bumps, files, ignored };
}

/** A package a breaking change needs a major for, and what the change gave it instead. */
export interface MissingMajor {
  readonly pkg: string;
  /** The bump the change's changesets gave it ("none": no changeset of the change names it). */
  readonly got: Bump;
  /** The changeset that gave that bump, when one did. */
  readonly file?: string;
  /** The catalogue classes of the breaking findings that call for it. */
  readonly classes: readonly string[];
}

/** Packages whose spec broke but that the change's changesets do not bump major. Empty means the gate passes. */
export function packagesMissingMajor(
  changesBySpec: ReadonlyMap<string, readonly SpecChange[]>,
  change: Pick<ChangeBumps, "bumps" | "files">,
): MissingMajor[] {
  const missing = new Map<string, MissingMajor>();
  for (const [spec, changes] of changesBySpec) {
    const breaking = changes.filter((c) => c.severity === "breaking");
    if (breaking.length === 0) continue;
    const classes = [...new Set(breaking.map((c) => c.rule))];
    for (const pkg of packagesOfSpec[spec] ?? []) {
      const got = change.bumps.get(pkg) ?? "none";
      if (got === "major") continue;
      const before = missing.get(pkg);
      const file = change.files.get(pkg);
      missing.set(pkg, {
        pkg,
        got,
        ...(file ? { file } : {}),
        classes: [...new Set([...(before?.classes ?? []), ...classes])],
      });
    }
  }
  return [...missing.values()].sort((a, b) => a.pkg.localeCompare(b.pkg));
}
