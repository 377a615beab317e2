import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultBase, OpticDiffer, runGate } from "../src/index.js";

const run = promisify(execFile);
const realSpecs = fileURLToPath(new URL("../../../specs/", import.meta.url));
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));

let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" }).toString().trim();
const paymentsSpec = () => join(repo, "specs/payments-accounts.openapi.yaml");
const changeset = (name: string, bumps: Record<string, string>) =>
  writeFileSync(
    join(repo, ".changeset", `${name}.md`),
    `---\n${Object.entries(bumps)
      .map(([p, b]) => `"${p}": ${b}`)
      .join("\n")}\n---\n\n${name}\n`,
  );

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "payspec-gate-"));
  mkdirSync(join(repo, "specs"));
  mkdirSync(join(repo, ".changeset"));
  for (const f of ["payments-accounts.openapi.yaml", "card-gateway.openapi.yaml"])
    cpSync(join(realSpecs, f), join(repo, "specs", f));
  writeFileSync(join(repo, ".changeset/config.json"), "{}\n");
  git("init", "-q", "-b", "main");
  git("-c", "user.email=ci@payspec.test", "-c", "user.name=ci", "commit", "-q", "--allow-empty", "-m", "root");
  git("add", "-A");
  git("-c", "user.email=ci@payspec.test", "-c", "user.name=ci", "commit", "-q", "-m", "specs");
  git("checkout", "-q", "-b", "feature");
  // Narrow the payment method enum: a breaking change for every consumer that sends eft.
  writeFileSync(
    paymentsSpec(),
    readFileSync(paymentsSpec(), "utf8").replace(
      "enum: [bank_transfer, card, virtual_account, eft]",
      "enum: [bank_transfer, card, virtual_account]",
    ),
  );
});

describe("the breaking-change gate", () => {
  it("compares with where the branch left main by default", () => {
    expect(defaultBase(repo)).toBe(git("rev-parse", "main"));
  });

  it("fails a breaking change without a major changeset for every affected package", async () => {
    changeset("minor-only", { "@payspec/specs": "minor", "@payspec/payments-zod": "major" });
    const result = await runGate(repo, "main", new OpticDiffer());
    expect(
      result.changesBySpec.get("specs/payments-accounts.openapi.yaml")?.some((c) => c.severity === "breaking"),
    ).toBe(true);
    expect(result.changesBySpec.get("specs/card-gateway.openapi.yaml")).toEqual([]);
    expect(result.missingMajor).toEqual(["@payspec/payments-client", "@payspec/specs"]);
  });

  it("passes once the affected packages have a major changeset", async () => {
    changeset("breaking", {
      "@payspec/specs": "major",
      "@payspec/payments-zod": "major",
      "@payspec/payments-client": "major",
    });
    expect((await runGate(repo, "main", new OpticDiffer())).missingMajor).toEqual([]);
  });

  it("exits 1 from the CLI naming what to do, and 0 for a safe change", { timeout: 120_000 }, async () => {
    const failure = await run(tsx, [cli], { env: { ...process.env, PAYSPEC_REPO: repo } }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toContain("BREAKING POST /v1/payments");
    expect(failure.stderr).toContain(
      "need a major changeset for: @payspec/payments-client, @payspec/payments-zod, @payspec/specs",
    );
    git("checkout", "-q", "--", "specs");
    writeFileSync(
      paymentsSpec(),
      readFileSync(paymentsSpec(), "utf8").replace(
        "        reference:\n          type: string\n          description: Your own reference (for example an invoice number), used for reconciliation matching.",
        "        reference:\n          type: string\n          description: Your own reference (for example an invoice number), used for reconciliation matching.\n        note:\n          type: string\n          description: An optional note.",
      ),
    );
    const { stdout } = await run(tsx, [cli, "--base", "main"], { env: { ...process.env, PAYSPEC_REPO: repo } });
    expect(stdout).toContain("0 breaking");
  });
});
