import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { infoVersion, specVersionSources, syncSpecVersions, withInfoVersion } from "../src/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("spec versions follow their packages", () => {
  it("holds today: each spec's info.version equals its generated packages' version", () => {
    for (const { spec, packageDir } of specVersionSources) {
      const { version } = JSON.parse(readFileSync(join(root, packageDir, "package.json"), "utf8"));
      expect(infoVersion(readFileSync(join(root, spec), "utf8")), spec).toBe(version);
    }
  });

  it("both packages of a spec are one fixed changesets group", () => {
    const config = JSON.parse(readFileSync(join(root, ".changeset/config.json"), "utf8"));
    expect(config.fixed).toEqual([
      ["@payspec/payments-zod", "@payspec/payments-client"],
      ["@payspec/card-gateway-zod", "@payspec/card-gateway-client"],
    ]);
  });

  it("rewrites only the info.version line after a version bump", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "payspec-release-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    // The next major of today's spec version: a bump the specs have not had yet.
    const today = infoVersion(readFileSync(join(root, specVersionSources[0].spec), "utf8"));
    expect(today).toMatch(/^\d+\.\d+\.\d+$/);
    const next = `${Number(today?.split(".")[0]) + 1}.0.0`;
    for (const { spec, packageDir } of specVersionSources) {
      mkdirSync(join(scratch, packageDir), { recursive: true });
      mkdirSync(join(scratch, "specs"), { recursive: true });
      cpSync(join(root, spec), join(scratch, spec));
      writeFileSync(join(scratch, packageDir, "package.json"), JSON.stringify({ version: next }));
    }
    const before = readFileSync(join(scratch, specVersionSources[0].spec), "utf8");
    const synced = await syncSpecVersions(scratch);
    expect(synced.map((s) => s.to)).toEqual([next, next]);
    const after = readFileSync(join(scratch, specVersionSources[0].spec), "utf8");
    expect(infoVersion(after)).toBe(next);
    expect(after).toBe(withInfoVersion(before, next));
    expect(after.split("\n").filter((line, i) => line !== before.split("\n")[i])).toEqual([`  version: ${next}`]);
    expect(await syncSpecVersions(scratch)).toEqual([]);
  });
});

describe("the first release", () => {
  it("gave every public package a released version and a CHANGELOG.md, and left nothing pending", () => {
    const dirs = ["specs", ...["packages", "apps"].flatMap((d) => readdirSync(join(root, d)).map((p) => `${d}/${p}`))];
    const publicDirs = dirs.filter((dir) => !JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).private);
    expect(publicDirs.length).toBeGreaterThanOrEqual(9);
    for (const dir of publicDirs) {
      const { name, version } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
      expect(version, name).not.toBe("0.0.0");
      const changelog = readFileSync(join(root, dir, "CHANGELOG.md"), "utf8");
      expect(changelog, name).toContain(`# ${name}`);
      expect(changelog, name).toContain(`## ${version}`);
    }
  });
});
