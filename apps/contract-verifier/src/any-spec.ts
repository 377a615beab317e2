import { readFile } from "node:fs/promises";
import { IGNORED_NULLABLE } from "@payspec/specs";
import { parseDocument } from "yaml";
import { inlineNonSchemaRefs } from "./spec-refs.js";

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
 * What `nullable: true` without a `type` beside it means, by the document's version: up to 3.0.2 it
 * allowed null (the reading of every tool of the time); 3.0.3 made it explicit that it then has no
 * effect; 3.1 has no such keyword. Where it is ignored, the reason goes into the messages.
 */
function untypedNullable(version: string): "allows-null" | string {
  if (/^3\.0\.[0-2]$/.test(version)) return "allows-null";
  if (version.startsWith("3.0."))
    return `OpenAPI ${version} gives nullable effect only beside a type in the same schema (3.0.3 made that explicit); add the type, or a {"type": "null"} member to the oneOf`;
  return `nullable is not an OpenAPI ${version} keyword; allow null with type: [..., "null"] or a {"type": "null"} member`;
}

/**
 * OpenAPI 3.0 schemas are not JSON Schema 2020-12: `nullable` and boolean `exclusiveMinimum` /
 * `exclusiveMaximum` mean something else there. Rewritten to their 3.1 form, one validator serves both.
 */
function as31Schema(node: unknown, nullableRule: string): unknown {
  if (Array.isArray(node)) return node.map((item) => as31Schema(item, nullableRule));
  if (typeof node !== "object" || node === null) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = as31Schema(value, nullableRule);
  const untyped = out.nullable === true && out.type === undefined && !out.enum;
  if (out.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (out.enum) out.enum = [...out.enum, null];
  }
  if (typeof out.nullable === "boolean") delete out.nullable;
  if (untyped && nullableRule === "allows-null") return { anyOf: [{ type: "null" }, out] };
  if (untyped) out[IGNORED_NULLABLE] = nullableRule;
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

/** Parses YAML or JSON; a syntax error names the line and column, and the whole problem. */
function parseSpecText(file: string, text: string): Node {
  // JSON is YAML too, but the YAML parser reads it some 50 times slower than JSON.parse (278 ms against
  // 6 ms for Unleash's 748 kB spec, paid again by every rerun line): a JSON spec is read as JSON, and only
  // one that is not valid JSON goes on to the YAML parser, for its data or for its error's line and column.
  if (/^\s*\{/.test(text)) {
    try {
      return JSON.parse(text) as Node;
    } catch {
      // not JSON after all: YAML reads it, or says where it is wrong
    }
  }
  const document = parseDocument(text, { uniqueKeys: false });
  const error = document.errors[0];
  if (error) {
    const where = error.linePos?.[0];
    const at = where ? `line ${where.line}, column ${where.col}` : `offset ${error.pos[0]}`;
    throw new UnusableSpec(
      `--spec ${file} is neither valid YAML nor JSON: at ${at}, ${error.message
        .split("\n")[0]
        ?.replace(/ at line \d+, column \d+:?$/, "")}. Fix the file there and run again.`,
    );
  }
  return document.toJS({ maxAliasCount: -1 }) as Node;
}

/**
 * The path the spec's first server puts in front of every operation (`/v3` of `servers: [{url: /v3}]`
 * or of `https://api.example/v3`), server variables at their defaults; empty when there is none.
 */
export function serverBasePath(doc: object): string {
  const server = (doc as Node).servers?.[0];
  if (typeof server?.url !== "string") return "";
  const url = server.url.replace(/\{([^}]+)\}/g, (_: string, name: string) =>
    String(server.variables?.[name]?.default ?? ""),
  );
  let path: string;
  try {
    path = new URL(url, "http://relative.invalid").pathname;
  } catch {
    return "";
  }
  return decodeURI(path).replace(/\/+$/, "");
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document (YAML or JSON) for the schema-level checks: 3.0 schemas in
 * their 3.1 form, every local `$ref` outside schemas (request bodies, parameters, responses,
 * headers, examples, path items) followed, so that every check sees each operation whole.
 */
export async function loadAnySpec(file: string): Promise<object> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UnusableSpec(`cannot read --spec ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const doc = parseSpecText(file, text);
  const version = String(doc?.openapi ?? doc?.swagger ?? "");
  if (!/^3\.[01]\./.test(version))
    throw new UnusableSpec(
      `--spec ${file} is ${version ? `version ${version}` : "not an OpenAPI document"}; give an OpenAPI 3.0 or 3.1 spec (convert Swagger 2.0 first).`,
    );
  const external = externalRef(doc);
  if (external)
    throw new UnusableSpec(`--spec ${file} has an external $ref at ${external}; bundle it into one file first.`);
  const operations = Object.values<Node>(doc.paths ?? {}).filter((item) => typeof item === "object" && item !== null);
  if (operations.length === 0) {
    const webhooks = Object.keys(doc.webhooks ?? {}).length;
    throw new UnusableSpec(
      `--spec ${file} has no paths, so there is nothing to verify against --target${
        webhooks > 0
          ? ` (its ${webhooks} webhook${webhooks === 1 ? " is a request" : "s are requests"} the provider sends, not answers)`
          : ""
      }. Give a spec that declares paths.`,
    );
  }
  // 3.1 documents written by hand still say `nullable`: read it as 3.0 meant it rather than choke on it.
  const schemas31 = as31Schema(doc, untypedNullable(version)) as Node;
  try {
    return inlineNonSchemaRefs(schemas31);
  } catch (error) {
    throw new UnusableSpec(`--spec ${file}: ${(error as Error).message}`);
  }
}
