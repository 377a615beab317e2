import type { Artefact } from "../artefact.js";
import { markdownHeader } from "../artefact.js";
import type { LoadedSpec } from "../load-spec.js";

export interface Assumption {
  /** JSON pointer of the node that carries the mark. */
  readonly pointer: string;
  readonly reason: string;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/** Every `x-payspec-assumed` in a document, in document order. */
export function collectAssumptions(node: unknown, pointer = ""): Assumption[] {
  if (typeof node !== "object" || node === null) return [];
  const found: Assumption[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "x-payspec-assumed") {
      for (const reason of Array.isArray(value) ? value : [value]) found.push({ pointer, reason: String(reason) });
    } else {
      found.push(...collectAssumptions(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`));
    }
  }
  return found;
}

/** Replaces `parameters/<index>` with `parameter <name>`, the way the spec's readers know it. */
function nameParameters(parts: string[], root: unknown): string[] {
  const named: string[] = [];
  let node: unknown = root;
  for (const part of parts) {
    const parent = node;
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    const name = (node as { name?: unknown } | undefined)?.name;
    if (Array.isArray(parent) && named.at(-1) === "parameters" && typeof name === "string") {
      named[named.length - 1] = `parameter ${name}`;
    } else named.push(part);
  }
  return named;
}

/** Turns a JSON pointer into the words a reader of the spec would use for that place. */
export function describeLocation(pointer: string, root?: unknown): string {
  const raw = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  const parts = root === undefined ? raw : nameParameters(raw, root);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "info")) return "the whole API";
  if (parts[0] === "paths" && parts[1]) {
    const [, path, method, ...rest] = parts;
    if (!method || !HTTP_METHODS.has(method)) return `\`${path}\` ${rest.join(" ")}`.trim();
    return [`\`${method.toUpperCase()} ${path}\``, ...rest].join(" › ");
  }
  if (parts[0] === "components" && parts[2]) {
    const [, kind, name, ...rest] = parts;
    const field = rest.filter((p) => p !== "properties").join(".");
    return `${kind?.replace(/s$/, "")} \`${name}${field ? `.${field}` : ""}\``;
  }
  return `\`${pointer}\``;
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** specs/ASSUMPTIONS.md: every decision we took where the seeds say "not shown". */
export function assumptionsMarkdown(specs: readonly LoadedSpec[]): Artefact {
  const sections = specs.map((spec) => {
    const rows = collectAssumptions(spec.bundled).map(
      (a) => `| ${escapeCell(describeLocation(a.pointer, spec.bundled))} | ${escapeCell(a.reason)} |`,
    );
    return [
      `## ${spec.bundled.info.title} (\`${spec.source.path}\`)`,
      "",
      "| Where | Decision |",
      "|---|---|",
      ...rows,
      "",
    ].join("\n");
  });
  const intro = [
    "# Assumptions",
    "",
    'The seeds leave some things "not shown". Each is decided once, marked in the spec with',
    "`x-payspec-assumed` where it lives, and kept the same in every client, validator, mock and check.",
    "This file lists those marks; it is generated from the specs.",
    "",
  ].join("\n");
  return {
    path: "specs/ASSUMPTIONS.md",
    content: `${markdownHeader(specs.map((s) => s.provenance))}${intro}\n${sections.join("\n")}`,
  };
}
