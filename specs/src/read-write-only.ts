/**
 * The document as one direction sees it. OpenAPI: a `readOnly` property that is `required` is required
 * in responses only, and a `writeOnly` one in requests only (3.0.3, Schema Object; 3.1 keeps the
 * meaning through JSON Schema's annotations). Every `required` list of the copy for requests leaves out
 * its `readOnly` properties, and the copy for responses its `writeOnly` ones; `$ref`s inside the copy
 * land in the same copy, so a shared component is read each way.
 */
// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

export type Direction = "request" | "response";

export function asSeenBy(spec: object, direction: Direction): object {
  const root = spec as Node;
  const marker = direction === "request" ? "readOnly" : "writeOnly";
  /** The schema a property names, through local `$ref`s (at most a few deep). */
  const resolved = (schema: unknown): Node | undefined => {
    let node = schema as Node | undefined;
    for (let hops = 0; hops < 16 && typeof node?.$ref === "string" && node.$ref.startsWith("#/"); hops++) {
      node = node.$ref
        .slice(2)
        .split("/")
        .map((s: string) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
        .reduce((at: Node | undefined, key: string) => at?.[key], root);
    }
    return node;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    const source = node as Node;
    if (Array.isArray(source.required) && typeof source.properties === "object" && source.properties !== null) {
      out.required = source.required.filter((name: unknown) => {
        const property = resolved(source.properties[name as string]);
        return property?.[marker] !== true;
      });
    }
    return out;
  };
  return walk(spec) as object;
}

/** Which copy a pointer into the document belongs to: a request's, a response's, or neither (a component). */
export function directionOf(pointer: string): Direction | undefined {
  if (/\/(requestBody|parameters)(\/|$)/.test(pointer)) return "request";
  if (/\/responses(\/|$)/.test(pointer)) return "response";
  return undefined;
}
