import { paymentsAccountsSpec, resolveRef } from "@payspec/specs";

type SchemaNode = { readonly [keyword: string]: unknown };

/**
 * What a serializer reads from a schema. Patterns, formats, bounds, examples and descriptions judge
 * or explain an answer; they do not shape its JSON, and a serializer need not see them.
 */
const SHAPE_KEYWORDS = new Set(["type", "properties", "items", "required"]);

/** The schema's shape with every local `$ref` written out: Fastify's serializer compiles it alone. */
function shapeOf(node: unknown): unknown {
  // A keyword's value that is not a schema (`required`'s names, `type`'s list) is kept as it is.
  if (typeof node !== "object" || node === null || Array.isArray(node)) return node;
  const schema = node as SchemaNode;
  if (typeof schema.$ref === "string") return shapeOf(resolveRef(paymentsAccountsSpec, schema, [])[0]);
  const shape: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!SHAPE_KEYWORDS.has(keyword)) continue;
    shape[keyword] =
      keyword === "properties"
        ? Object.fromEntries(Object.entries(value as SchemaNode).map(([name, property]) => [name, shapeOf(property)]))
        : shapeOf(value);
  }
  return shape;
}

/**
 * Route options that make Fastify serialize an operation's answer with a serializer compiled from the
 * spec's schema at start (fast-json-stringify), instead of a generic JSON.stringify per request.
 * Only for the hottest routes: errors and every other answer keep the generic one.
 */
export function specSerializer(path: string, method: "get" | "post", status: number) {
  const operation = (paymentsAccountsSpec.paths as unknown as Record<string, Record<string, SchemaNode>>)[path]?.[
    method
  ];
  const response = (operation?.responses as Record<string, SchemaNode> | undefined)?.[String(status)];
  const schema = (response?.content as Record<string, SchemaNode> | undefined)?.["application/json"]?.schema;
  if (schema === undefined) throw new Error(`The payments spec has no JSON ${status} answer for ${method} ${path}.`);
  return { schema: { response: { [status]: shapeOf(schema) } } };
}
