import { createHash } from "node:crypto";

/** One generated file: where it goes (repository-relative) and what it holds. */
export interface Artefact {
  readonly path: string;
  readonly content: string;
}

/** The spec a generated file comes from, with the hash that proves which version. */
export interface Provenance {
  readonly specPath: string;
  readonly specVersion: string;
  readonly sha256: string;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The first line(s) of every generated text file. */
export function headerLines(p: Provenance): string[] {
  return [
    "generated — do not edit.",
    `source: ${p.specPath} (info.version ${p.specVersion}, sha256 ${p.sha256})`,
    "regenerate with `pnpm generate`.",
  ];
}

export function tsHeader(p: Provenance): string {
  return `${headerLines(p)
    .map((line) => `// ${line}`)
    .join("\n")}\n`;
}

export function markdownHeader(provenances: readonly Provenance[]): string {
  const sources = provenances.map((p) => `${p.specPath} (info.version ${p.specVersion}, sha256 ${p.sha256})`);
  return `<!-- generated — do not edit. sources: ${sources.join("; ")}. regenerate with \`pnpm generate\`. -->\n`;
}
