import { defaultBase, isCommit } from "./base-ref.js";
import { packagesOfSpec } from "./changeset-gate.js";
import { PayspecDiffer } from "./payspec-differ.js";
import { runGate, UnreadableSpec } from "./run-gate.js";

const AFFECTS: Record<string, string> = {
  callers: "callers (their requests are refused or misread)",
  "generated clients": "generated clients (types or validation)",
  both: "callers and generated clients",
  nobody: "nobody",
};

const USAGE = `pnpm spec:diff [--base REF]: the breaking-change gate

Compares the specs with REF (default: where the branch left main; on main, PAYSPEC_SPEC_DIFF_BASE, the
last release, or the parent commit) and checks that every breaking change has a major changeset
added since then.

Exit codes: 0 every breaking change has its major changeset, 1 one is missing, 2 bad input.`;

/** Where the gate's lines go: the CLI's stdout and stderr, or a test's strings. */
export interface GateOutput {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/**
 * `pnpm spec:diff [--base REF]` in the repository at `cwd`: 0 when every breaking change since the
 * base has a major changeset added since the base, 1 when not, 2 on bad input. The CLI is this and
 * its process; the tests call it in process, as each run through tsx cost more than a second of CPU.
 */
export async function gateCommand(argv: readonly string[], cwd: string, { out, err }: GateOutput): Promise<number> {
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  if (args.includes("-h") || args.includes("--help")) {
    out(USAGE);
    return 0;
  }
  const unknown = args.find((a, n) => a !== "--base" && args[n - 1] !== "--base");
  if (unknown !== undefined) {
    err(`Unknown option ${unknown.startsWith("-") ? unknown : `"${unknown}"`}.\n\n${USAGE}`);
    return 2;
  }
  const i = args.indexOf("--base");
  if (i >= 0 && !args[i + 1]) {
    err("--base needs a git ref (a branch, tag or commit).");
    return 2;
  }
  const given = args[i + 1];
  if (i >= 0 && given && !isCommit(cwd, given)) {
    // A ref that names nothing must not compare with "no spec at the base" and pass.
    err(`--base ${given} is not a commit of this repository: give a branch, tag or commit hash (git log shows them).`);
    return 2;
  }
  const base = i >= 0 ? { ref: given, reason: "--base" } : defaultBase(cwd);
  if (!base.ref) {
    if ("missingHistory" in base && base.missingHistory) {
      err(`spec:diff: cannot find the base: ${base.reason}.`);
      return 2;
    }
    out(`spec:diff: nothing to compare: ${base.reason}.`);
    return 0;
  }
  out(`spec:diff: comparing with ${base.ref} (${base.reason}).`);
  let result: Awaited<ReturnType<typeof runGate>>;
  try {
    result = await runGate(cwd, base.ref, new PayspecDiffer());
  } catch (error) {
    if (!(error instanceof UnreadableSpec)) throw error;
    err(`spec:diff: ${error.message}`);
    return 2;
  }
  for (const [spec, changes] of result.changesBySpec) {
    const breaking = changes.filter((c) => c.severity === "breaking");
    out(`\n${spec}: ${breaking.length} breaking, ${changes.length - breaking.length} safe`);
    for (const c of breaking) {
      out(`  BREAKING [${c.rule}] ${c.where}`);
      out(`    ${c.message}`);
      out(`    at ${c.pointer}; breaks ${AFFECTS[c.affects ?? "both"]}`);
    }
    for (const c of changes.filter((x) => x.severity === "safe").slice(0, 30)) out(`  safe     [${c.rule}] ${c.where}`);
  }
  if (result.ignoredChangesets.length > 0) {
    out(
      `\n${result.ignoredChangesets.length} changeset(s) were pending before ${base.ref}; they speak for earlier changes and are not counted.`,
    );
  }
  if (result.missingMajor.length > 0) {
    const missing = result.missingMajor.map((m) => m.pkg);
    const specs = [...result.changesBySpec]
      .filter(
        ([spec, changes]) =>
          changes.some((c) => c.severity === "breaking") && packagesOfSpec[spec]?.some((p) => missing.includes(p)),
      )
      .map(([spec]) => spec.replace(/^specs\//, "").replace(/\.openapi\.yaml$/, ""));
    const lines = result.missingMajor.map((m) =>
      m.got === "none"
        ? `  ${m.pkg}: no changeset added by this change names it (breaking: ${m.classes.join(", ")})`
        : `  ${m.pkg}: ${m.file} bumps it ${m.got}, but a breaking change needs major (breaking: ${m.classes.join(", ")})`,
    );
    err(
      `\nBreaking spec changes need a major changeset added by this change for: ${missing.join(", ")}.\n` +
        `${lines.join("\n")}\n` +
        "Make it pass by recording a major release that says what consumers must change:\n" +
        specs
          .map((spec) => `  pnpm changeset --bump major --spec ${spec} --message "What callers must change"`)
          .join("\n") +
        "\n(or undo the breaking change).",
    );
    return 1;
  }
  out("\nspec:diff: every breaking change has its major changeset, added by this change.");
  return 0;
}
