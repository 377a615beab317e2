import { resolveRef } from "./spec-examples.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document whose shape the spec tests pin down
type Node = Record<string, any>;

/** A value derived from a valid one by pushing a single constraint of the schema to (or past) its edge. */
export interface BoundaryCase {
  /** Where and what changed, for example `card.cvc: pattern broken ("123x")`. */
  readonly label: string;
  /** Dotted path of the changed value (`""` for the root). */
  readonly at: string;
  readonly value: unknown;
}

const REMOVE = Symbol("remove");

/**
 * `root` with the value at `path` replaced (or removed), copying only the objects and arrays along
 * the path: the rest is shared with `root`, so a large body's hundreds of cases cost what their paths
 * cost, not a deep copy each (on Unleash's spec that was a fifth of a run). Cases are only ever read.
 */
function setAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const node = root as Node;
  const copy: Node = Array.isArray(node) ? [...node] : { ...node };
  if (rest.length > 0) copy[key as string] = setAt(node[key as string], rest, value);
  else if (value === REMOVE) delete copy[key as string];
  else copy[key as string] = value;
  return copy;
}

function typesOf(schema: Node): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ["object"];
  return [];
}

function wrongTypeValue(types: readonly string[]): unknown {
  if (!types.includes("string")) return "not-a-number-or-object";
  return 12345;
}

/**
 * Mutations of a valid value, one constraint at a time: each bound just inside and just outside,
 * wrong types, missing required fields, unknown fields where they are closed, broken patterns and
 * formats, values outside an enum, arrays one past their size limits. Whether each case is valid is
 * for a validator to say; these are the cases worth asking about.
 */
export function boundaryCases(spec: object, schemaPointer: string, valid: unknown): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  const doc = spec as Node;
  const [root] = resolveRef(doc, { $ref: schemaPointer }, []);

  const visit = (rawSchema: Node, value: unknown, path: (string | number)[], depth: number) => {
    if (depth > 8 || rawSchema === undefined) return;
    const [schema] = resolveRef(doc, rawSchema, []);
    const at = path.join(".");
    const add = (what: string, next: unknown) =>
      cases.push({ label: `${at || "(root)"}: ${what}`, at, value: setAt(valid, path, next) });
    for (const member of schema.allOf ?? []) visit(member, value, path, depth + 1);
    const types = typesOf(schema);
    if (types.length > 0) add(`wrong type`, wrongTypeValue(types));
    if (schema.enum) add(`outside the enum`, "NOT_IN_ENUM");
    if (schema.const !== undefined) add(`not the constant`, "NOT_THE_CONSTANT");
    if (types.includes("integer") || types.includes("number")) {
      const step = types.includes("integer") ? 1 : 0.01;
      if (typeof schema.minimum === "number") {
        add(`minimum ${schema.minimum}`, schema.minimum);
        add(`below minimum`, Number((schema.minimum - step).toFixed(2)));
      }
      if (typeof schema.maximum === "number") {
        add(`maximum ${schema.maximum}`, schema.maximum);
        add(`above maximum`, schema.maximum + step);
      }
      if (types.includes("integer")) add(`fractional`, (typeof value === "number" ? value : 1) + 0.5);
    }
    if (types.includes("string") && typeof value === "string") {
      if (schema.pattern) {
        add(`pattern broken (appended "x!")`, `${value}x!`);
        add(`blank`, "   ");
      }
      if (typeof schema.minLength === "number" && schema.minLength > 0)
        add(`too short`, "".padEnd(schema.minLength - 1, "a"));
      if (typeof schema.maxLength === "number") add(`too long`, "".padEnd(schema.maxLength + 1, "a"));
      if (schema.format) add(`bad ${schema.format}`, `not-a-${schema.format}`);
    }
    if (types.includes("array") && Array.isArray(value)) {
      if (typeof schema.minItems === "number")
        add(`fewer than ${schema.minItems} items`, value.slice(0, schema.minItems - 1));
      if (typeof schema.maxItems === "number" && value.length > 0) {
        add(
          `more than ${schema.maxItems} items`,
          Array.from({ length: schema.maxItems + 1 }, () => value[0]),
        );
      }
      if (schema.items && value.length > 0) visit(schema.items, value[0], [...path, 0], depth + 1);
    }
    if (types.includes("object") && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const name of schema.required ?? []) add(`required ${name} missing`, setAt(value, [name], REMOVE));
      if (schema.additionalProperties === false) add(`unknown field`, { ...(value as Node), unexpectedField: "x" });
      for (const [name, propSchema] of Object.entries<Node>(schema.properties ?? {})) {
        const child = (value as Node)[name];
        if (child !== undefined && child !== null) visit(propSchema, child, [...path, name], depth + 1);
      }
    }
  };

  visit(root, valid, [], 0);
  return cases;
}
