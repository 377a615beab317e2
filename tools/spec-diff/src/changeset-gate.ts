import readChangesets from "@changesets/read";
import type { SpecChange } from "./spec-change.js";

/** The packages generated from each spec: a breaking spec change is a breaking change for each. */
export const packagesOfSpec: Readonly<Record<string, readonly string[]>> = {
  "specs/payments-accounts.openapi.yaml": ["@payspec/specs", "@payspec/payments-zod", "@payspec/payments-client"],
  "specs/card-gateway.openapi.yaml": ["@payspec/specs", "@payspec/card-gateway-zod", "@payspec/card-gateway-client"],
};

export type Bump = "major" | "minor" | "patch" | "none";

/** The strongest pending bump per package, from the changesets in .changeset/. */
export async function pendingBumps(cwd: string): Promise<Map<string, Bump>> {
  const rank: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };
  const bumps = new Map<string, Bump>();
  for (const changeset of await readChangesets(cwd)) {
    for (const release of changeset.releases) {
      const current = bumps.get(release.name) ?? "none";
      if (rank[release.type] > rank[current]) bumps.set(release.name, release.type);
    }
  }
  return bumps;
}

/** Packages whose spec broke but that have no major changeset waiting. Empty means the gate passes. */
export function packagesMissingMajor(
  changesBySpec: ReadonlyMap<string, readonly SpecChange[]>,
  bumps: ReadonlyMap<string, Bump>,
): string[] {
  const missing = new Set<string>();
  for (const [spec, changes] of changesBySpec) {
    if (!changes.some((c) => c.severity === "breaking")) continue;
    for (const pkg of packagesOfSpec[spec] ?? []) if (bumps.get(pkg) !== "major") missing.add(pkg);
  }
  return [...missing].sort();
}
