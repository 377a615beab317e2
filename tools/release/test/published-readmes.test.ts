import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Each published package's folder: what npm's page shows the README of. */
function publishedDirs(): string[] {
  const dirs = ["specs", ...["packages", "apps"].flatMap((d) => readdirSync(join(root, d)).map((p) => `${d}/${p}`))];
  return dirs.filter(
    (dir) =>
      existsSync(join(root, dir, "package.json")) &&
      !JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).private,
  );
}

// npm's page renders a package's README alone: a relative link that leaves the package (`../../examples/…`)
// points nowhere there. Links into the repository are written whole (github.com/payspec/payspec/…).
it("no published README links outside its package by a relative path", () => {
  const dirs = publishedDirs();
  expect(dirs.length).toBeGreaterThanOrEqual(9);
  const leaving = dirs.flatMap((dir) => {
    const readme = join(root, dir, "README.md");
    if (!existsSync(readme)) return [];
    return [...readFileSync(readme, "utf8").matchAll(/\]\((\.\.\/[^)]*)\)/g)].map((m) => `${dir}/README.md → ${m[1]}`);
  });
  expect(leaving).toEqual([]);
});
