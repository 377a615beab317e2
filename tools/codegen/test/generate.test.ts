import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { generateArtefacts } from "../src/generate.js";
import { collectAssumptions, describeLocation } from "../src/generators/assumptions.js";
import { repoRoot } from "../src/specs.js";
import { staleArtefacts, writeArtefacts } from "../src/sync.js";

describe("pnpm generate", () => {
  it("heads every generated file with the do-not-edit notice and the spec hash", async () => {
    for (const artefact of await generateArtefacts()) {
      expect(artefact.content.slice(0, 400), artefact.path).toMatch(/generated — do not edit/);
      expect(artefact.content.slice(0, 600), artefact.path).toMatch(/sha256 [0-9a-f]{64}/);
    }
  });

  it("reports a hand-edited or missing file as stale, and writing fixes it", async () => {
    const root = await mkdtemp(join(tmpdir(), "payspec-codegen-"));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    const artefacts = await generateArtefacts();
    expect(await staleArtefacts(root, artefacts)).toHaveLength(artefacts.length);
    await writeArtefacts(root, artefacts);
    expect(await staleArtefacts(root, artefacts)).toEqual([]);
    const edited = artefacts[0];
    if (!edited) throw new Error("no artefacts generated");
    await writeFile(join(root, edited.path), `${edited.content}// hand edit\n`);
    expect((await staleArtefacts(root, artefacts)).map((a) => a.path)).toEqual([edited.path]);
  });

  it("lists every x-payspec-assumed of the specs in ASSUMPTIONS.md", async () => {
    const markdown = await readFile(join(repoRoot, "specs/ASSUMPTIONS.md"), "utf8");
    const spec = JSON.parse(await readFile(join(repoRoot, "specs/bundled/card-gateway.openapi.json"), "utf8"));
    const assumptions = collectAssumptions(spec);
    expect(assumptions.length).toBeGreaterThan(5);
    for (const a of assumptions) expect(markdown).toContain(a.reason.replaceAll("|", "\\|"));
  });
});

describe("describeLocation", () => {
  it("names operations, components and fields the way a reader would", () => {
    expect(describeLocation("/paths/~1v1~1payments/post/responses/201")).toBe("`POST /v1/payments` › responses › 201");
    expect(describeLocation("/components/schemas/Account/properties/balance")).toBe("schema `Account.balance`");
    expect(describeLocation("/info")).toBe("the whole API");
  });
});
