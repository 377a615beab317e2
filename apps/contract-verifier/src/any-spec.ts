import { readFile } from "node:fs/promises";
import { parse } from "yaml";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** The spec given with --spec cannot be used; the message says what to change. */
export class UnusableSpec extends Error {}

function externalRef(node: unknown, at = "#"): string | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) return `${at}/${key}`;
    const found = externalRef(value, `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * OpenAPI 3.0 schemas are not JSON Schema 2020-12: `nullable` and boolean `exclusiveMinimum` /
 * `exclusiveMaximum` mean something else there. Rewritten to their 3.1 form, one validator serves both.
 */
function as31Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(as31Schema);
  if (typeof node !== "object" || node === null) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = as31Schema(value);
  if (out.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (out.enum) out.enum = [...out.enum, null];
  }
  if (typeof out.nullable === "boolean") delete out.nullable;
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  return out;
}

/** Reads an OpenAPI 3.0 or 3.1 document (YAML or JSON) for the schema-level checks. */
export async function loadAnySpec(file: string): Promise<object> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UnusableSpec(`cannot read --spec ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let doc: Node;
  try {
    doc = parse(text) as Node;
  } catch (error) {
    throw new UnusableSpec(`--spec ${file} is neither YAML nor JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  const version = String(doc?.openapi ?? doc?.swagger ?? "");
  if (!/^3\.[01]\./.test(version))
    throw new UnusableSpec(
      `--spec ${file} is ${version ? `version ${version}` : "not an OpenAPI document"}; give an OpenAPI 3.0 or 3.1 spec (convert Swagger 2.0 first).`,
    );
  const external = externalRef(doc);
  if (external)
    throw new UnusableSpec(`--spec ${file} has an external $ref at ${external}; bundle it into one file first.`);
  return version.startsWith("3.0") ? (as31Schema(doc) as Node) : doc;
}
