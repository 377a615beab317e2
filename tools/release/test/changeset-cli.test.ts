import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it, onTestFinished } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../src/changeset.ts", import.meta.url));

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "payspec-changeset-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, ".changeset"));
  return dir;
}
const changeset = (dir: string, ...args: string[]) =>
  // tsx as a loader in one process: its own CLI starts a second Node for the script.
  run(process.execPath, ["--import", "tsx", cli, ...args], { env: { ...process.env, PAYSPEC_REPO: dir } }).then(
    (r) => ({ code: 0, ...r }),
    (e) => e as { code: number; stdout: string; stderr: string },
  );

// A bound against a hang: one test's three runs took 30 s of a loaded CI machine.
describe("pnpm changeset without a terminal", { timeout: 120_000 }, () => {
  it("refuses with exit 2 and says which flags to pass", async () => {
    const dir = repo();
    const result = await changeset(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--bump major|minor|patch --spec payments-accounts|card-gateway --message");
    expect(readdirSync(join(dir, ".changeset"))).toEqual([]);
  });

  it("writes a major changeset for every package generated from the spec", async () => {
    const dir = repo();
    const result = await changeset(
      dir,
      "--",
      "--bump",
      "major",
      "--spec",
      "payments-accounts",
      "--message",
      "reference is gone",
    );
    expect(result.code).toBe(0);
    const [file] = readdirSync(join(dir, ".changeset"));
    const text = readFileSync(join(dir, ".changeset", file as string), "utf8");
    expect(text).toBe(
      '---\n"@payspec/specs": major\n"@payspec/payments-zod": major\n"@payspec/payments-client": major\n---\n\nreference is gone\n',
    );
  });

  it("refuses an unknown spec or bump with exit 2", async () => {
    const dir = repo();
    expect((await changeset(dir, "--bump", "major", "--spec", "nope", "--message", "x")).code).toBe(2);
    expect((await changeset(dir, "--bump", "huge", "--spec", "card-gateway", "--message", "x")).code).toBe(2);
    expect((await changeset(dir, "--bump", "major")).code).toBe(2);
  });
});

describe("pnpm changeset with a broken pending changeset", { timeout: 120_000 }, () => {
  it("exits 2 naming the file and what to fix, where changesets itself prints a stack trace", async () => {
    const dir = repo();
    mkdirSync(join(dir, "specs"));
    writeFileSync(join(dir, "specs/package.json"), JSON.stringify({ name: "@payspec/specs" }));
    writeFileSync(join(dir, ".changeset/no-front.md"), "just words\n");
    writeFileSync(join(dir, ".changeset/unknown.md"), '---\n"@payspec/nope": major\n---\n\nx\n');
    writeFileSync(join(dir, ".changeset/level.md"), '---\n"@payspec/specs": huge\n---\n\nx\n');
    const result = await changeset(dir, "status");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        "pnpm changeset cannot read the pending changesets:",
        '  .changeset/level.md gives @payspec/specs the level "huge": use major, minor or patch.',
        '  .changeset/no-front.md does not start with its packages between "---" lines: fix it or delete it.',
        "  .changeset/unknown.md names @payspec/nope, which is not a package of this workspace: fix the name or delete the file.",
        "",
      ].join("\n"),
    );
  });
});
