// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** A discriminated `oneOf`/`anyOf`: the property that names the branch, and each name's schema. */
export interface Discriminated {
  readonly property: string;
  readonly branches: readonly { readonly value: string; readonly ref: string }[];
}

const schemaRef = (target: string) => (target.startsWith("#") ? target : `#/components/schemas/${target}`);

/**
 * The branches of a schema that OpenAPI's `discriminator` chooses between: each value of the
 * property with the `$ref` it selects, from the `mapping` (a `$ref` or a schema's name) and, for a
 * member it does not name, the member schema's own name, as OpenAPI says. Undefined when the schema
 * has no discriminator, or a member is not a local `$ref` (nothing to name it by).
 */
export function discriminated(schema: Node): Discriminated | undefined {
  const property = schema?.discriminator?.propertyName;
  const members: unknown = schema?.oneOf ?? schema?.anyOf;
  if (typeof property !== "string" || !Array.isArray(members) || members.length === 0) return undefined;
  const refs = members.map((m) => (typeof m?.$ref === "string" && m.$ref.startsWith("#/") ? m.$ref : undefined));
  if (refs.some((ref) => ref === undefined)) return undefined;
  const branches: { value: string; ref: string }[] = [];
  for (const [value, target] of Object.entries<unknown>(schema.discriminator.mapping ?? {})) {
    if (typeof target !== "string") return undefined;
    branches.push({ value, ref: schemaRef(target) });
  }
  for (const ref of refs as string[]) {
    if (!branches.some((b) => b.ref === ref)) branches.push({ value: ref.slice(ref.lastIndexOf("/") + 1), ref });
  }
  return { property, branches };
}

/**
 * The spec with each discriminated `oneOf`/`anyOf` written as JSON Schema can check it: the property
 * must hold one of the branches' names, and that name's schema applies. JSON Schema alone holds a
 * value to "exactly one" of the members, and members that differ only by the discriminator's value
 * (`{kind, a?}` and `{kind, b?}`) both match a valid one: a correct answer was refused.
 */
export function withDiscriminatorsApplied(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withDiscriminatorsApplied);
  if (typeof node !== "object" || node === null) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = withDiscriminatorsApplied(value);
  const found = discriminated(out);
  if (!found) return out;
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...rest } = out;
  return {
    ...rest,
    allOf: [
      ...(Array.isArray(rest.allOf) ? rest.allOf : []),
      {
        type: "object",
        required: [found.property],
        properties: { [found.property]: { enum: [...new Set(found.branches.map((b) => b.value))] } },
      },
      ...found.branches.map(({ value, ref }) => ({
        if: { required: [found.property], properties: { [found.property]: { const: value } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, a schema never awaited
        then: { $ref: ref },
      })),
    ],
  };
}
