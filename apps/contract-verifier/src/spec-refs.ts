// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** The object a local `$ref` (`#/components/requestBodies/Pet`) points at. */
function pointed(doc: Node, ref: string): unknown {
  const segments = decodeURIComponent(ref.slice(1))
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  return segments.reduce<unknown>((node, key) => (node as Node | undefined)?.[key], doc);
}

/** Follows `$ref` → `$ref` → … to the object at the end; a loop or a dangling one is the spec's problem. */
function follow(doc: Node, node: unknown): Node {
  let current = node as Node;
  const seen: string[] = [];
  while (typeof current?.$ref === "string") {
    const ref = current.$ref as string;
    if (seen.includes(ref)) throw new Error(`its $refs loop: ${[...seen, ref].join(" → ")}.`);
    seen.push(ref);
    const target = pointed(doc, ref) as Node | undefined;
    if (target === undefined || target === null) throw new Error(`$ref ${ref} points at nothing; fix the reference.`);
    // 3.1 lets a reference carry its own summary/description: the target's fields win for the rest.
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

const mapValues = (record: Node | undefined, fn: (value: Node) => Node): Node | undefined =>
  record && Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));

/**
 * The document with every local `$ref` that is not a schema replaced by what it points at: path
 * items, parameters, request bodies, responses, headers, examples. Schemas keep their `$ref`s, cycles
 * included; the validator follows those itself. So a JSON pointer such as
 * `#/paths/~1pets/post/requestBody/content/application~1json/schema` exists for every operation.
 */
export function inlineNonSchemaRefs(doc: Node): Node {
  const examples = (holder: Node): Node =>
    holder.examples && typeof holder.examples === "object" && !Array.isArray(holder.examples)
      ? { ...holder, examples: mapValues(holder.examples, (e) => follow(doc, e)) }
      : holder;
  const content = (holder: Node): Node =>
    holder.content
      ? { ...holder, content: mapValues(holder.content, (media) => examples(follow(doc, media))) }
      : holder;
  const parameter = (raw: Node): Node => content(examples(follow(doc, raw)));
  const header = parameter;
  const response = (raw: Node): Node => {
    const resolved = content(follow(doc, raw));
    return resolved.headers ? { ...resolved, headers: mapValues(resolved.headers, header) } : resolved;
  };
  const operation = (raw: Node): Node => {
    const op = follow(doc, raw);
    return {
      ...op,
      ...(Array.isArray(op.parameters) ? { parameters: op.parameters.map(parameter) } : {}),
      ...(op.requestBody ? { requestBody: content(follow(doc, op.requestBody)) } : {}),
      responses: mapValues(op.responses ?? {}, response),
    };
  };
  const paths = mapValues(doc.paths, (raw) => {
    const item = follow(doc, raw);
    const out: Node = { ...item };
    if (Array.isArray(item.parameters)) out.parameters = item.parameters.map(parameter);
    for (const method of METHODS) if (item[method]) out[method] = operation(item[method]);
    return out;
  });
  return { ...doc, paths };
}
