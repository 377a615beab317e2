import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import type { Artefact } from "../artefact.js";
import { tsHeader } from "../artefact.js";
import { generatorInput } from "../generator-input.js";
import type { LoadedSpec } from "../load-spec.js";

interface ObjectResolverContext {
  readonly schema: { additionalProperties?: { type?: string } };
  readonly symbols: { z: unknown };
  readonly $: (node: unknown) => { attr(name: string): { call(...args: unknown[]): unknown } };
  readonly nodes: { shape(ctx: ObjectResolverContext): unknown };
}

/**
 * `additionalProperties: false` must reject unknown keys, as the spec says, but the zod plugin renders
 * every object as `z.object` (which strips them). This resolver renders those objects as `z.strictObject`.
 */
function strictWhenClosed(ctx: ObjectResolverContext): unknown {
  if (ctx.schema.additionalProperties?.type !== "never") return undefined;
  return ctx.$(ctx.symbols.z).attr("strictObject").call(ctx.nodes.shape(ctx));
}

/**
 * The zod plugin writes a `pattern` as a regex literal after reading its escapes: `\u0000` lands in
 * the source as a raw NUL, and a lone surrogate as U+FFFD once the file is UTF-8, which changes what
 * the regex means. Such patterns go to the plugin as placeholders, and come back as
 * `new RegExp("<the spec's own text>")`.
 */
function escapedPatternsHeldBack(document: unknown): { input: unknown; restore(source: string): string } {
  const held: string[] = [];
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key !== "pattern" || typeof value !== "string" || !value.includes("\\u")) return [key, walk(value)];
        held.push(value);
        return [key, `^payspecHeldPattern${held.length - 1}$`];
      }),
    );
  };
  const input = walk(document);
  return {
    input,
    restore: (source) =>
      held.reduce(
        (text, pattern, i) => text.replaceAll(`/^payspecHeldPattern${i}$/`, `new RegExp(${JSON.stringify(pattern)})`),
        source,
      ),
  };
}

/** zod v4 schemas and inferred types for every component, request, parameter set and response. */
export async function zodSchemas(spec: LoadedSpec, packageDir: string): Promise<Artefact> {
  const out = await mkdtemp(join(tmpdir(), "payspec-zod-"));
  const patterns = escapedPatternsHeldBack(generatorInput(spec.bundled));
  try {
    await createClient({
      input: patterns.input as never,
      output: { path: out },
      logs: { level: "silent" },
      plugins: [
        {
          name: "zod",
          // Inferred types take the plain schema name (Payment for zPayment), as users expect.
          definitions: { types: { infer: "{{name}}" } },
          requests: { types: { infer: "{{name}}Data" } },
          responses: { types: { infer: "{{name}}Response" } },
          metadata: false,
          // ISO 8601 timestamps with an offset are valid `date-time`s; zod rejects them unless told.
          dates: { offset: true },
          "~resolvers": { object: strictWhenClosed },
        } as never,
      ],
    });
    // `format: uuid` is any 8-4-4-4-12 hex string to JSON Schema validators (ajv, Prism, Specmatic);
    // zod's z.uuid() also checks RFC 9562's version and variant. z.guid() reads it as they all do.
    const generated = patterns
      .restore(await readFile(join(out, "zod.gen.ts"), "utf8"))
      .replaceAll("z.uuid()", "z.guid()");
    return { path: `${packageDir}/src/generated/zod.gen.ts`, content: `${tsHeader(spec.provenance)}\n${generated}` };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
