import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packagesOfSpec } from "@payspec/spec-diff";

export type Bump = "major" | "minor" | "patch";

export interface ChangesetRequest {
  readonly bump: Bump;
  /** `payments-accounts` or `card-gateway`: every package generated from that spec is released. */
  readonly spec: string;
  readonly message: string;
}

export class ChangesetUsageError extends Error {}

export const SPECS = Object.keys(packagesOfSpec).map((file) =>
  file.replace(/^specs\//, "").replace(/\.openapi\.yaml$/, ""),
);

/** The packages a change to `spec` releases: the spec package and everything generated from it. */
export function packagesFor(spec: string): readonly string[] {
  const packages = packagesOfSpec[`specs/${spec}.openapi.yaml`];
  if (!packages) throw new ChangesetUsageError(`--spec must be one of ${SPECS.join(", ")}; got "${spec}".`);
  return packages;
}

/**
 * Writes a changeset without asking anything (for CI and scripts): every package generated from the
 * spec at the same bump, as the breaking-change gate requires. Returns the file written.
 */
export async function writeChangeset(root: string, request: ChangesetRequest): Promise<string> {
  if (!["major", "minor", "patch"].includes(request.bump)) {
    throw new ChangesetUsageError(`--bump must be major, minor or patch; got "${request.bump}".`);
  }
  if (!request.message.trim()) throw new ChangesetUsageError("--message must say what changed for consumers.");
  const packages = packagesFor(request.spec);
  const name = `${request.spec}-${request.bump}-${randomBytes(3).toString("hex")}`;
  const file = join(root, ".changeset", `${name}.md`);
  const header = packages.map((pkg) => `"${pkg}": ${request.bump}`).join("\n");
  await writeFile(file, `---\n${header}\n---\n\n${request.message.trim()}\n`);
  return file;
}
