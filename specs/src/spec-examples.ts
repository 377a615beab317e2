import { pointerOf } from "./spec-validator.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document whose shape the spec tests pin down
type Node = Record<string, any>;

/** One example of the spec, with the schema it must satisfy. */
export interface SpecExample {
  /** `createPayment request application/json "invoicePayment"`, for messages. */
  readonly name: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** `request`, a response status such as `201`, or `parameter <name>`. */
  readonly part: string;
  readonly mediaType?: string;
  readonly schemaPointer: string;
  readonly value: unknown;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function unescapePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Follows a local `$ref` and returns the target with the segments that lead to it. */
export function resolveRef(
  spec: Node,
  node: Node,
  fallback: readonly (string | number)[],
): [Node, (string | number)[]] {
  if (typeof node?.$ref !== "string") return [node, [...fallback]];
  const segments = node.$ref.slice(2).split("/").map(unescapePointer);
  return [segments.reduce((n: Node, k: string) => n[k], spec), segments];
}

/** Every example the spec declares on operations: request and response bodies, and parameters. */
export function specExamples(spec: object): SpecExample[] {
  const doc = spec as Node;
  const found: SpecExample[] = [];
  for (const [path, item] of Object.entries<Node>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const base = { operationId: op.operationId as string, method: method.toUpperCase(), path };
      const fromContent = (part: string, content: Node | undefined, at: (string | number)[]) => {
        for (const [mediaType, media] of Object.entries<Node>(content ?? {})) {
          for (const [exampleName, example] of Object.entries<Node>(media.examples ?? {})) {
            found.push({
              ...base,
              name: `${op.operationId} ${part} ${mediaType} "${exampleName}"`,
              part,
              mediaType,
              schemaPointer: pointerOf(...at, "content", mediaType, "schema"),
              value: example.value,
            });
          }
        }
      };
      if (op.requestBody) fromContent("request", op.requestBody.content, ["paths", path, method, "requestBody"]);
      for (const [status, raw] of Object.entries<Node>(op.responses)) {
        const [response, at] = resolveRef(doc, raw, ["paths", path, method, "responses", status]);
        fromContent(status, response.content, at);
      }
      (op.parameters ?? []).forEach((param: Node, i: number) => {
        if (param.example === undefined) return;
        found.push({
          ...base,
          name: `${op.operationId} parameter ${param.name}`,
          part: `parameter ${param.name}`,
          schemaPointer: pointerOf("paths", path, method, "parameters", i, "schema"),
          value: param.example,
        });
      });
    }
  }
  return found;
}
