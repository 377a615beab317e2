import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { gateCommand } from "../src/gate-command.js";
import { defaultBase, PayspecDiffer, runGate } from "../src/index.js";

const run = promisify(execFile);
const realSpecs = fileURLToPath(new URL("../../../specs/", import.meta.url));
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
/** The CLI as `pnpm spec:diff` runs it, tsx as a loader in one process (its own CLI starts a second Node). */
const runCli = (args: string[], env: NodeJS.ProcessEnv) =>
  run(process.execPath, ["--import", "tsx", cli, ...args], { env: { ...process.env, ...env } });

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

/** Drops `eft` from the payment method enum: a breaking change for every consumer that sends it. */
const narrowMethodEnum = (file: string) =>
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(
      "enum: [bank_transfer, card, virtual_account, eft]",
      "enum: [bank_transfer, card, virtual_account]",
    ),
  );

afterEach(() => rmSync(repo, { recursive: true, force: true }));
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
  narrowMethodEnum(paymentsSpec());
});

describe("the breaking-change gate", () => {
  it("compares with where the branch left main by default", () => {
    expect(defaultBase(repo).ref).toBe(git("rev-parse", "main"));
  });

  it("fails a breaking change without a major changeset for every affected package", async () => {
    changeset("minor-only", { "@payspec/specs": "minor", "@payspec/payments-zod": "major" });
    const result = await runGate(repo, "main", new PayspecDiffer());
    expect(
      result.changesBySpec.get("specs/payments-accounts.openapi.yaml")?.some((c) => c.severity === "breaking"),
    ).toBe(true);
    expect(result.changesBySpec.get("specs/card-gateway.openapi.yaml")).toEqual([]);
    expect(result.missingMajor.map((m) => [m.pkg, m.got])).toEqual([
      ["@payspec/payments-client", "none"],
      ["@payspec/specs", "minor"],
    ]);
    expect(result.missingMajor[1]?.classes).toContain("request.enum.narrowed");
  });

  it("passes once the affected packages have a major changeset", async () => {
    changeset("breaking", {
      "@payspec/specs": "major",
      "@payspec/payments-zod": "major",
      "@payspec/payments-client": "major",
    });
    expect((await runGate(repo, "main", new PayspecDiffer())).missingMajor).toEqual([]);
  });

  it("exits 1 from the CLI naming what to do, and 0 for a safe change", { timeout: 120_000 }, async () => {
    const failure = await runCli([], { PAYSPEC_REPO: repo }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toContain("BREAKING [request.enum.narrowed] POST /v1/payments request body: method");
    expect(failure.stderr).toContain("pnpm changeset --bump major --spec payments-accounts");
    expect(failure.stderr).toContain(
      "need a major changeset added by this change for: @payspec/payments-client, @payspec/payments-zod, @payspec/specs",
    );
    git("checkout", "-q", "--", "specs");
    writeFileSync(
      paymentsSpec(),
      readFileSync(paymentsSpec(), "utf8").replace(
        "        reference:\n          type: string\n          maxLength: 140\n",
        "        note:\n          type: string\n          description: An optional note.\n        reference:\n          type: string\n          maxLength: 140\n",
      ),
    );
    const { stdout } = await cliIn(repo, "--base", "main");
    expect(stdout).toContain("0 breaking");
    expect(stdout).toContain("safe     [request.property.new-optional] POST /v1/payments request body: note");
  });
});

const commitAll = (message: string) => {
  git("add", "-A");
  git("-c", "user.email=ci@payspec.test", "-c", "user.name=ci", "commit", "-q", "-m", message);
};
/**
 * `pnpm spec:diff` in `dir`, in this process: its exit code and what it printed. Two tests run the CLI
 * itself, for its exit code, its streams and its environment.
 */
async function cliIn(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await gateCommand(args, dir, {
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
}

describe("no silent pass", () => {
  it("on main without a release tag compares with the parent commit, and fails a breaking commit without a major changeset", {
    timeout: 120_000,
  }, async () => {
    git("checkout", "-q", "main");
    writeFileSync(
      paymentsSpec(),
      readFileSync(paymentsSpec(), "utf8").replace(
        "        reference:\n          type: string\n          maxLength: 140",
        "        unused:\n          type: string\n          maxLength: 140",
      ),
    );
    commitAll("remove reference from PaymentCreate");
    expect(defaultBase(repo)).toMatchObject({ ref: git("rev-parse", "HEAD~1") });
    const result = await cliIn(repo);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("comparing with");
    expect(result.stdout).toContain(
      "BREAKING [request.property.removed-strict] POST /v1/payments request body: reference",
    );
    expect(result.stdout).toContain(
      "at /paths/~1v1~1payments/post/requestBody/content/application~1json/schema/properties/reference",
    );
    expect(result.stdout).toContain("breaks callers and generated clients");
    expect(result.stderr).toContain(
      'pnpm changeset --bump major --spec payments-accounts --message "What callers must change"',
    );
  });

  it("says there is nothing to compare only in a repository with a single commit", { timeout: 120_000 }, async () => {
    const single = mkdtempSync(join(tmpdir(), "payspec-single-"));
    onTestFinished(() => rmSync(single, { recursive: true, force: true }));
    mkdirSync(join(single, "specs"));
    mkdirSync(join(single, ".changeset"));
    cpSync(join(realSpecs, "payments-accounts.openapi.yaml"), join(single, "specs/payments-accounts.openapi.yaml"));
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: single });
    execFileSync("git", ["add", "-A"], { cwd: single });
    execFileSync("git", ["-c", "user.email=ci@payspec.test", "-c", "user.name=ci", "commit", "-q", "-m", "only"], {
      cwd: single,
    });
    const result = await cliIn(single);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("nothing to compare: the repository has a single commit");
  });
});

/** The issue's reproductions: each breaking, each once passed because a major was already pending. */
const REPRODUCTIONS: [string, string, (text: string) => string, string][] = [
  [
    "delete reference from PaymentCreate",
    "specs/payments-accounts.openapi.yaml",
    (t) =>
      t.replace(
        "        reference:\n          type: string\n          maxLength: 140",
        "        unused:\n          type: string\n          maxLength: 140",
      ),
    "request.property.removed-strict",
  ],
  [
    "narrow the currency enum",
    "specs/card-gateway.openapi.yaml",
    (t) => t.replace("      enum: [TRY, USD, EUR]\n", "      enum: [TRY, USD]\n"),
    "enum.narrowed",
  ],
  [
    "remove an operation",
    "specs/payments-accounts.openapi.yaml",
    (t) => t.replace(/ {2}\/v1\/payments\/batch:\n[\s\S]*?(?=\n {2}\/|\ncomponents:)/, ""),
    "operation.removed",
  ],
];

describe("the gate judges the change, not the backlog", () => {
  const pendingMajorOnMain = () => {
    git("checkout", "-q", "--", "specs");
    git("checkout", "-q", "main");
    changeset("old-major", {
      "@payspec/specs": "major",
      "@payspec/payments-zod": "major",
      "@payspec/payments-client": "major",
      "@payspec/card-gateway-zod": "major",
      "@payspec/card-gateway-client": "major",
    });
    commitAll("a major changeset left pending long ago");
    git("checkout", "-q", "-B", "feature");
  };

  it.each(REPRODUCTIONS)(
    "fails %s despite a major changeset pending from an earlier commit",
    { timeout: 120_000 },
    async (_name, spec, edit, rule) => {
      pendingMajorOnMain();
      writeFileSync(join(repo, spec), edit(readFileSync(join(repo, spec), "utf8")));
      expect(readFileSync(join(repo, spec), "utf8")).not.toBe(readFileSync(join(realSpecs, spec.slice(6)), "utf8"));
      const result = await runGate(repo, "main", new PayspecDiffer());
      expect(result.ignoredChangesets).toEqual([".changeset/old-major.md"]);
      expect(result.missingMajor.length).toBeGreaterThan(0);
      expect(result.missingMajor.flatMap((m) => m.classes).join(" ")).toContain(rule);
      const cliResult = await cliIn(repo, "--base", "main");
      expect(cliResult.code).toBe(1);
      expect(cliResult.stderr).toContain("no changeset added by this change names it");
      expect(cliResult.stderr).toContain(rule);
      expect(cliResult.stderr).toContain("pnpm changeset --bump major --spec");
    },
  );

  it("passes the same change once it adds its own major changeset", { timeout: 120_000 }, async () => {
    pendingMajorOnMain();
    const spec = join(repo, "specs/payments-accounts.openapi.yaml");
    narrowMethodEnum(spec);
    changeset("drop-eft", {
      "@payspec/specs": "major",
      "@payspec/payments-zod": "major",
      "@payspec/payments-client": "major",
    });
    commitAll("drop eft, with its major changeset");
    const result = await cliIn(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("every breaking change has its major changeset, added by this change");
  });

  it("fails a change whose own changeset is minor, saying which file and which level", {
    timeout: 120_000,
  }, async () => {
    pendingMajorOnMain();
    const spec = join(repo, "specs/payments-accounts.openapi.yaml");
    narrowMethodEnum(spec);
    changeset("drop-eft", {
      "@payspec/specs": "minor",
      "@payspec/payments-zod": "minor",
      "@payspec/payments-client": "minor",
    });
    const result = await cliIn(repo, "--base", "main");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "@payspec/payments-client: .changeset/drop-eft.md bumps it minor, but a breaking change needs major",
    );
  });
});

describe("the gate on main", () => {
  it("judges a whole multi-commit push from the commit before it (PAYSPEC_SPEC_DIFF_BASE)", {
    timeout: 120_000,
  }, async () => {
    git("checkout", "-q", "main");
    const before = git("rev-parse", "HEAD");
    const spec = join(repo, "specs/payments-accounts.openapi.yaml");
    narrowMethodEnum(spec);
    commitAll("breaking, first commit of the push");
    writeFileSync(join(repo, "notes.txt"), "a harmless second commit\n");
    commitAll("harmless, last commit of the push");
    // The last commit alone changes nothing; the push as a whole breaks the spec.
    expect((await cliIn(repo)).code).toBe(0);
    const pushed = await runCli([], { PAYSPEC_REPO: repo, PAYSPEC_SPEC_DIFF_BASE: before }).catch((e) => e);
    expect(pushed.code).toBe(1);
    expect(pushed.stdout).toContain("PAYSPEC_SPEC_DIFF_BASE");
  });

  it("compares with the last release commit (the newest to write specs/CHANGELOG.md)", {
    timeout: 120_000,
  }, async () => {
    git("checkout", "-q", "--", "specs");
    git("checkout", "-q", "main");
    writeFileSync(join(repo, "specs/CHANGELOG.md"), "# @payspec/specs\n\n## 1.0.0\n");
    commitAll("Version Packages");
    const release = git("rev-parse", "HEAD");
    const spec = join(repo, "specs/payments-accounts.openapi.yaml");
    narrowMethodEnum(spec);
    commitAll("breaking");
    writeFileSync(join(repo, "notes.txt"), "later\n");
    commitAll("later");
    expect(defaultBase(repo)).toMatchObject({ ref: release });
    expect((await cliIn(repo)).code).toBe(1);
  });
});

describe("bad input: exit 2 and a sentence, never a pass or a stack trace", () => {
  it("-h and --help print the usage; an unknown option is refused", async () => {
    for (const flag of ["-h", "--help"]) {
      const help = await cliIn(repo, flag);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^pnpm spec:diff \[--base REF\]: the breaking-change gate/);
    }
    const unknown = await cliIn(repo, "--bsae", "main");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option --bsae\.\n\npnpm spec:diff \[--base REF\]/);
  });

  it("a --base that names no commit", async () => {
    const answer = await cliIn(repo, "--base", "no-such-branch");
    expect(answer.code).toBe(2);
    expect(answer.stderr).toBe(
      "--base no-such-branch is not a commit of this repository: give a branch, tag or commit hash (git log shows them).\n",
    );
  });

  it("a spec that is not valid YAML", async () => {
    writeFileSync(paymentsSpec(), "openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\n");
    const answer = await cliIn(repo, "--base", "main");
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(
      /^spec:diff: specs\/payments-accounts\.openapi\.yaml \(in the work tree, or as it was at main\) cannot be read: .*line 3, column \d+.*\. Fix the file and run again\.\n$/,
    );
    expect(answer.stderr).not.toMatch(/\n\s+at /);
  });
});
