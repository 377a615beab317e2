import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { syncImageTags } from "../src/image-tags.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
let copy: string;
afterEach(() => rmSync(copy, { recursive: true, force: true }));

it("points the compose stack, the Kubernetes base and the READMEs at the released versions of the images", async () => {
  copy = mkdtempSync(join(tmpdir(), "payspec-image-tags-"));
  for (const file of ["compose.yaml", "README.md", "deploy/README.md", "deploy/kubernetes/base/kustomization.yaml"])
    cpSync(join(root, file), join(copy, file), { recursive: true });
  for (const [app, version] of [
    ["sandbox", "7.1.0"],
    ["mock", "3.2.1"],
    ["contract-verifier", "4.0.0-rc.1"],
  ]) {
    mkdirSync(join(copy, "apps", app as string), { recursive: true });
    writeFileSync(join(copy, "apps", app as string, "package.json"), JSON.stringify({ version }));
  }
  const changes = await syncImageTags(copy);
  expect(changes.map((c) => c.file)).toEqual(
    expect.arrayContaining(["compose.yaml", "deploy/kubernetes/base/kustomization.yaml"]),
  );
  const compose = readFileSync(join(copy, "compose.yaml"), "utf8");
  expect(compose).toContain("image: payspec/sandbox:7.1.0");
  expect(compose).toContain("image: payspec/mock:3.2.1");
  expect(compose).not.toMatch(/payspec\/(sandbox|mock):(?!7\.1\.0|3\.2\.1)\d/);
  expect(readFileSync(join(copy, "deploy/kubernetes/base/kustomization.yaml"), "utf8")).toMatch(
    /- name: payspec\/sandbox\n\s+newTag: 7\.1\.0/,
  );
  expect(readFileSync(join(copy, "README.md"), "utf8")).toContain("payspec/sandbox:7.1.0");
  // A second run changes nothing.
  expect(await syncImageTags(copy)).toEqual([]);
});
