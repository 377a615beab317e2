import { createConfig, lint } from "@redocly/openapi-core";
import type { Finding } from "./lint-spec.js";

const REDOCLY_CONFIG = new URL("../redocly.yaml", import.meta.url);

/** Runs the independent second validator (Redocly, recommended-strict) on one spec file. */
export async function redoclyFindings(file: string): Promise<Finding[]> {
  const { readFile } = await import("node:fs/promises");
  const config = await createConfig(await readFile(REDOCLY_CONFIG, "utf8"));
  const problems = await lint({ ref: file, config });
  return problems.map((problem) => ({
    file,
    tool: "redocly",
    rule: problem.ruleId,
    message: problem.message,
    where: problem.location[0]?.pointer ?? "",
  }));
}
