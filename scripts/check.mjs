// `pnpm check`: every gate a change must pass, phase by phase, then where the time went: each phase's
// wall time and the ten slowest test files (read from vitest's own lines as turbo prints them).
// Stops at the first phase that fails, with its exit code, as the `&&` chain it replaces did.
import { spawn } from "node:child_process";

const PHASES = [
  ["generated code is current", "pnpm generate --check"],
  // The tarball consumer test runs beside the others: it waits on npm and on the servers it starts
  // more than on a core, and alone after them it added two and a half minutes to every check.
  ["lint, types and tests (the published tarballs' among them)", "turbo run lint typecheck test --concurrency=3"],
  ["the breaking-change gate", "pnpm spec:diff"],
];

// "@payspec/sandbox:test:  ✓  postgres  test/deep-json.test.ts (3 tests) 476ms"
const FILE_LINE =
  /^(@payspec\/[\w-]+):test:\s+[✓❯×]\s+(?:(\w+)\s+)?(\S+\.test\.[cm]?tsx?)\s+\((\d+) tests?[^)]*\)\s+([\d.]+)(ms|s)\s*$/;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const files = [];
    let rest = "";
    const scan = (chunk) => {
      const text = rest + chunk.toString("utf8");
      const lines = text.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const m = FILE_LINE.exec(line.replace(ANSI, ""));
        if (m)
          files.push({
            where: `${m[1]} ${m[2] ? `(${m[2]}) ` : ""}${m[3]}`,
            ms: Number(m[5]) * (m[6] === "s" ? 1000 : 1),
          });
      }
    };
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      scan(chunk);
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, files }));
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const timings = [];
const files = [];
let failed = 0;
for (const [name, command] of PHASES) {
  const started = Date.now();
  const result = await run(command);
  timings.push([name, Date.now() - started, result.code]);
  files.push(...result.files);
  if (result.code !== 0) {
    failed = result.code;
    break;
  }
}

console.log("\nWhere the time went (install excluded):");
for (const [name, ms, code] of timings)
  console.log(`  ${seconds(ms).padStart(8)}  ${name}${code ? `  (failed, exit ${code})` : ""}`);
if (files.length > 0) {
  console.log("The ten slowest test files (a file's own time; several packages run at once):");
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`  ${seconds(f.ms).padStart(8)}  ${f.where}`);
}
process.exit(failed);
