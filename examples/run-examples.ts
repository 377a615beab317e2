// `pnpm examples`: every example of this folder, run as its README says, against a sandbox started
// for the run on a free port of 127.0.0.1 (with sample payments) and stopped after. Exit 1 if any fails.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@payspec/sandbox";

const here = fileURLToPath(new URL(".", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "payspec-examples-"));
const bin = (name: string) => join(here, "node_modules", ".bin", name);

const EXAMPLES: [string, string, string[]][] = [
  ["quickstart-payments.ts", bin("tsx"), ["quickstart-payments.ts"]],
  ["card-payment.ts", bin("tsx"), ["card-payment.ts"]],
  ["export-csv.ts", bin("tsx"), ["export-csv.ts", join(scratch, "payments.csv")]],
  ["retries-with-faults.ts", bin("tsx"), ["retries-with-faults.ts"]],
  ["every-export.cjs", process.execPath, ["every-export.cjs"]],
  ["sandbox-in-tests.test.ts", bin("vitest"), ["run", "sandbox-in-tests.test.ts"]],
];

const sandbox = await startSandbox({ samplePayments: true });
const failed: string[] = [];
try {
  for (const [name, command, args] of EXAMPLES) {
    console.log(`\n== ${name}`);
    // Asynchronously: the sandbox answering the example lives in this process.
    const child = spawn(command, args, {
      cwd: here,
      stdio: "inherit",
      env: { ...process.env, PAYSPEC_SANDBOX_URL: sandbox.url },
      timeout: 120_000,
    });
    const status = await new Promise<number | null>((resolve) => {
      child.once("error", () => resolve(null));
      child.once("close", resolve);
    });
    if (status !== 0) failed.push(name);
  }
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  failed.length === 0
    ? `\nexamples: all ${EXAMPLES.length} ran against ${sandbox.url}.`
    : `\nexamples: ${failed.length} of ${EXAMPLES.length} failed: ${failed.join(", ")}.`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
