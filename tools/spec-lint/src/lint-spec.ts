import { readFile } from "node:fs/promises";
import { Document, Spectral } from "@stoplight/spectral-core";
import Parsers from "@stoplight/spectral-parsers";
import { payspecRuleset } from "./ruleset.js";

export interface Finding {
  readonly file: string;
  readonly tool: "spectral" | "redocly";
  readonly rule: string;
  readonly message: string;
  readonly where: string;
}

/** Runs the Spectral half of the gate on one spec file (or on YAML text, for tests). */
export async function spectralFindings(file: string, text?: string): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(payspecRuleset);
  const source = text ?? (await readFile(file, "utf8"));
  const results = await spectral.run(new Document(source, Parsers.Yaml, file));
  return results.map((result) => ({
    file,
    tool: "spectral",
    rule: String(result.code),
    message: result.message,
    where: `${result.path.join(".")} (line ${result.range.start.line + 1})`,
  }));
}
