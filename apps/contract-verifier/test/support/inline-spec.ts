import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseOptions, runVerification, type VerificationReport } from "../../src/index.js";

/** A `--spec` run of a spec written in the test, against `target`, with the run's other arguments. */
export async function verifyInlineSpec(
  spec: object,
  target: string,
  ...args: readonly string[]
): Promise<VerificationReport> {
  const file = join(await mkdtemp(join(tmpdir(), "payspec-inline-spec-")), "spec.json");
  await writeFile(file, JSON.stringify(spec));
  return runVerification(parseOptions(["--spec", file, "--target", target, ...args]));
}
