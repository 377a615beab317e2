import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { parseOptions, runVerification } from "../src/index.js";
import { CLI } from "./support/built-cli.js";
import { FlagServer, flagSpec } from "./support/flag-server.js";

/**
 * A run on a shared staging server leaves it as it found it (RESTler's garbage collector): whatever it
 * created is deleted at its end through the spec's own DELETE, children before their parents, also
 * when it is interrupted; what it could not delete is listed with why; --keep-created keeps it all,
 * listed. And it reaches children inside a parent that was there before, without touching the parent.
 */

let server: FlagServer | undefined;
afterEach(async () => {
  await server?.served?.close();
  server = undefined;
});

async function specFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "payspec-cleanup-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "spec.json");
  await writeFile(file, JSON.stringify(flagSpec));
  return file;
}

describe("a full run leaves the server as it found it", () => {
  it("deletes every record it created, children before parents, lists what it could not, and a second run finds the same lists", async () => {
    server = new FlagServer();
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const report = await runVerification(parseOptions(["--spec", file, "--target", url, "--seed", "3"]));
    // It reached children inside the project that was there (a feature added to "default", read by id).
    const readFeature = report.results.find((r) => r.id === "positive.getFeature");
    expect(readFeature?.status).toBe("passed");
    expect(server.records()).toEqual(before);
    expect(server.projects.get("default")?.name).toBe("Default");
    expect(report.cleanup?.deleted).toBeGreaterThanOrEqual(2);
    // Tags have no DELETE in the spec: named with their path, id and why.
    expect(server.tags.length).toBeGreaterThan(0);
    expect(report.cleanup?.left.map((r) => `${r.madeBy} ${r.id}: ${r.why}`).sort()).toEqual(
      server.tags.map((tag) => `POST /tags ${tag}: the spec has no DELETE for it`).sort(),
    );
    const again = await runVerification(parseOptions(["--spec", file, "--target", url, "--seed", "3"]));
    expect(again.cleanup?.left.length).toBe(server.tags.length / 2);
    expect(server.records()).toEqual(before);
  });

  it("keeps everything with --keep-created, listed, and then leaves existing parents alone", async () => {
    server = new FlagServer();
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const report = await runVerification(
      parseOptions(["--spec", file, "--target", url, "--seed", "3", "--keep-created"]),
    );
    const added = server.records().filter((line) => !before.includes(line));
    expect(server.records()).toEqual(expect.arrayContaining(before));
    expect(report.cleanup?.kept).toBe(true);
    // Every record left is listed (the tags too); no feature went into "default": keeping them, it would stay.
    const kept = report.cleanup?.left.filter((r) => !r.madeBy.startsWith("POST /tags")) ?? [];
    expect(kept.length).toBe(added.length);
    expect(added.filter((line) => line.startsWith("feature default/"))).toEqual([]);
    expect(report.cleanup?.left.every((r) => r.why === "kept: --keep-created")).toBe(true);
  });

  it("cleans up when interrupted by SIGTERM, reports, and exits with the checks' verdict", async () => {
    server = new FlagServer();
    server.delayMs = 40;
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const dir = await mkdtemp(join(tmpdir(), "payspec-cleanup-report-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      [CLI, "--spec", file, "--target", url, "--seed", "3", "--json", join(dir, "r.json")],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Once the run has made a project of its own, stop it as a cancelled CI job does.
    const deadline = Date.now() + 60_000;
    while (server.records().length === before.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code === 0 || code === 1).toBe(true);
    expect(stderr).toContain("SIGTERM: finishing the check under way, then deleting what the run created");
    expect(server.records()).toEqual(before);
    const report = JSON.parse(await readFile(join(dir, "r.json"), "utf8"));
    expect(report.cleanup.interrupted).toBe(true);
    expect(report.results.some((r: { note?: string }) => r.note?.includes("the run was interrupted (SIGTERM)"))).toBe(
      true,
    );
  });
});
