import type { Artefact } from "../artefact.js";
import { tsHeader } from "../artefact.js";
import type { LoadedSpec } from "../load-spec.js";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function pascalCase(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/**
 * A route table keyed by `METHOD /path/template`: operationId, declared success status, and the zod
 * schemas for the request (`z<Op>Data`) and the success body (`z<Op>Response`). Servers and clients
 * look validators up by route instead of hand-wiring them.
 */
export function routes(spec: LoadedSpec, packageDir: string, zodSource: string): Artefact {
  const exported = new Set([...zodSource.matchAll(/^export const (z\w+)/gm)].map((m) => m[1]));
  const lines: string[] = [];
  const paths = spec.bundled.paths as Record<string, Record<string, { operationId: string; responses: object }>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const name = pascalCase(op.operationId);
      const success = Object.keys(op.responses).find((s) => s.startsWith("2")) ?? "200";
      const data = exported.has(`z${name}Data`) ? `zod.z${name}Data` : "undefined";
      const response = exported.has(`z${name}Response`) ? `zod.z${name}Response` : "undefined";
      lines.push(
        `  "${method.toUpperCase()} ${path}": { operationId: "${op.operationId}", method: "${method.toUpperCase()}", path: "${path}", successStatus: ${success}, data: ${data}, response: ${response} },`,
      );
    }
  }
  const body = [
    'import * as zod from "./zod.gen.js";',
    "",
    "/** Every operation of the spec by `METHOD /path/template`, with its zod request and response schemas. */",
    "export const routes = {",
    ...lines,
    "} as const;",
    "",
    "export type RouteKey = keyof typeof routes;",
    "",
  ].join("\n");
  return { path: `${packageDir}/src/generated/routes.gen.ts`, content: `${tsHeader(spec.provenance)}\n${body}` };
}
