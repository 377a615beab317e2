import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../../src/index.js";

async function writeInlineSpec(spec: object): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "payspec-inline-spec-"));
  const file = join(dir, "spec.json");
  await writeFile(file, JSON.stringify(spec));
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

const verify = (file: string, target: string, args: readonly string[]) =>
  runVerification(parseOptions(["--spec", file, "--target", target, ...args]));

/**
 * A `--spec` run of a spec written in the test, against `target`, with the run's other arguments. The
 * spec's directory is removed once the run ends, whether it passed or threw: the run has read it by then.
 */
export async function verifyInlineSpec(
  spec: object,
  target: string,
  ...args: readonly string[]
): Promise<VerificationReport> {
  const { file, remove } = await writeInlineSpec(spec);
  try {
    return await verify(file, target, args);
  } finally {
    await remove();
  }
}

/**
 * verifyInlineSpec for a test that runs the report's printed rerun line, which names the spec's file
 * again: the file stays until the test ends. Only inside a test, not in a hook.
 */
export async function verifyInlineSpecKeptForRerun(
  spec: object,
  target: string,
  ...args: readonly string[]
): Promise<VerificationReport> {
  const { file, remove } = await writeInlineSpec(spec);
  onTestFinished(remove);
  return verify(file, target, args);
}
