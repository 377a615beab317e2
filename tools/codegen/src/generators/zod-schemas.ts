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

/** zod v4 schemas and inferred types for every component, request, parameter set and response. */
export async function zodSchemas(spec: LoadedSpec, packageDir: string): Promise<Artefact> {
  const out = await mkdtemp(join(tmpdir(), "payspec-zod-"));
  try {
    await createClient({
      input: structuredClone(generatorInput(spec.bundled)) as never,
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
    const generated = await readFile(join(out, "zod.gen.ts"), "utf8");
    return { path: `${packageDir}/src/generated/zod.gen.ts`, content: `${tsHeader(spec.provenance)}\n${generated}` };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
