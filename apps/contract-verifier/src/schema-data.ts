import { discriminated, resolveRef } from "@payspec/specs";
import { JSONSchemaFaker } from "json-schema-faker";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** The spec asks for something no value can be (or that this run cannot make): a finding about the spec. */
export class SpecProblem extends Error {}

/** Stands where a schema refers back to itself: the generator leaves such a branch out. */
const CYCLE: Node = Object.freeze({ "x-payspec-cycle": true });

/** Which way the data goes: a request leaves out `readOnly` properties, a response `writeOnly` ones. */
export type Direction = "request" | "response";

function leftOut(spec: Node, raw: unknown, direction: Direction): boolean {
  if (typeof raw !== "object" || raw === null) return false;
  const [schema] = resolveRef(spec, raw as Node, []);
  return direction === "request" ? schema?.readOnly === true : schema?.writeOnly === true;
}

/**
 * A self-contained copy of a schema for the generator: local `$ref`s inlined, a reference back to a
 * schema already being inlined left out (an optional property, an empty array), `readOnly`
 * properties left out of requests and `writeOnly` ones out of responses, extensions dropped, and
 * the spec's examples kept unless `keepExamples` is false.
 */
export function inlineSchema(
  spec: Node,
  node: unknown,
  direction: Direction = "request",
  stack: readonly string[] = [],
  keepExamples = true,
): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineSchema(spec, n, direction, stack, keepExamples));
  if (typeof node !== "object" || node === null) return node;
  let schema = node as Node;
  let inner = stack;
  if (typeof schema.$ref === "string") {
    if (stack.includes(schema.$ref)) return CYCLE;
    inner = [...stack, schema.$ref];
    const { $ref: _ref, ...siblings } = schema;
    schema = { ...(resolveRef(spec, schema, [])[0] ?? {}), ...siblings };
    if (typeof schema.$ref === "string") return inlineSchema(spec, schema, direction, inner, keepExamples);
  }
  const found = discriminated(schema);
  if (found) {
    // Each branch with its own name in the discriminator's property: the value a provider reads to
    // choose the branch (members that differ only by that name all match it otherwise).
    const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...rest } = schema;
    schema = {
      ...rest,
      oneOf: found.branches.map(({ value, ref }) => ({
        allOf: [
          { $ref: ref },
          { type: "object", required: [found.property], properties: { [found.property]: { const: value } } },
        ],
      })),
    };
  }
  const out: Node = {};
  const dropped = new Set<string>();
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || key === "discriminator" || key === "xml") continue;
    if (key === "properties" && typeof value === "object" && value !== null) {
      const properties: Node = {};
      for (const [name, property] of Object.entries<Node>(value)) {
        const inlined = leftOut(spec, property, direction)
          ? CYCLE
          : inlineSchema(spec, property, direction, inner, keepExamples);
        if (inlined === CYCLE) dropped.add(name);
        else properties[name] = inlined;
      }
      out.properties = properties;
    } else if (key === "example" || key === "examples") {
      // A spec's examples are not always valid (a UUID one digit short): the generator may do without them.
      if (keepExamples) out[key] = value;
    } else if (key === "default" || key === "enum" || key === "const") {
      out[key] = value;
    } else {
      out[key] = inlineSchema(spec, value, direction, inner, keepExamples);
    }
  }
  if (Array.isArray(out.required)) out.required = out.required.filter((name: string) => !dropped.has(name));
  // A required property the schema gives no schema of its own may be anything (or what
  // additionalProperties says): named, so that the generator makes it even when it adds no made-up
  // properties. Left out, every smallest-form attempt missed it and the run blamed the spec.
  if (Array.isArray(out.required) && out.additionalProperties !== false) {
    const open = typeof out.additionalProperties === "object" ? out.additionalProperties : {};
    for (const name of out.required as string[])
      if (!dropped.has(name) && !(name in (out.properties ?? {}))) out.properties = { ...out.properties, [name]: open };
  }
  if (out.items === CYCLE) {
    out.items = {};
    out.maxItems = 0;
  }
  if (out.additionalProperties === CYCLE) out.additionalProperties = false;
  // The generator reads exclusive bounds the draft-04 way (booleans): 2020-12's numbers become inclusive ones.
  const step = out.type === "integer" ? 1 : 0.01;
  if (typeof out.exclusiveMinimum === "number") {
    out.minimum = Math.max(out.minimum ?? Number.NEGATIVE_INFINITY, out.exclusiveMinimum + step);
    delete out.exclusiveMinimum;
  }
  if (typeof out.exclusiveMaximum === "number") {
    out.maximum = Math.min(out.maximum ?? Number.POSITIVE_INFINITY, out.exclusiveMaximum - step);
    delete out.exclusiveMaximum;
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(out[key])) {
      const usable = out[key].filter((member: unknown) => member !== CYCLE);
      if (usable.length > 0) out[key] = usable;
    }
  }
  return out;
}

const printable = (random: () => number, length: number) =>
  Array.from(
    { length },
    () => "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"[Math.floor(random() * 56)],
  ).join("");

/**
 * Formats with no generator of their own in json-schema-faker, given valid values (unknown ones
 * become plain strings). The random source is the run's seeded one, set before every generation.
 */
let currentRandom: () => number = Math.random;
const FORMATS: Record<string, () => string> = {
  password: () => `Pw-${printable(currentRandom, 12)}`,
  byte: () => Buffer.from(printable(currentRandom, 9)).toString("base64"),
  binary: () => printable(currentRandom, 16),
  base64: () => Buffer.from(printable(currentRandom, 9)).toString("base64"),
  int32: () => String(Math.floor(currentRandom() * 1000)),
  int64: () => String(Math.floor(currentRandom() * 1_000_000)),
  float: () => (currentRandom() * 100).toFixed(2),
  double: () => (currentRandom() * 100).toFixed(2),
  decimal: () => (currentRandom() * 100).toFixed(2),
  ipv6: () => "2001:db8::1",
  "idn-hostname": () => "example.com",
  hostname: () => `host-${printable(currentRandom, 6).toLowerCase()}.example.com`,
  "relative-json-pointer": () => "0/a",
  "json-pointer": () => "/a/b",
  "uri-template": () => "https://example.com/{id}",
};
for (const [name, generate] of Object.entries(FORMATS)) JSONSchemaFaker.format(name, generate);

/**
 * Seeded data for an inlined schema. `optionals`: fill every optional property (to give negative
 * cases something to break), or only the required ones (the smallest valid request). `openObjects`:
 * objects that allow any property get some made-up ones (json-schema-faker leaves an array of such
 * objects empty without them); the payspec APIs' own requests never carry made-up properties.
 */
export function generateData(
  random: () => number,
  schema: unknown,
  optionals: boolean,
  { openObjects = true }: { openObjects?: boolean } = {},
): unknown {
  currentRandom = random;
  JSONSchemaFaker.option({
    random,
    alwaysFakeOptionals: optionals,
    useExamplesValue: !optionals,
    useDefaultValue: false,
    fillProperties: openObjects,
    failOnInvalidTypes: false,
    failOnInvalidFormat: false,
    maxItems: 3,
    maxLength: 64,
    refDepthMax: 3,
  });
  try {
    return JSONSchemaFaker.generate(schema as never);
  } catch (error) {
    throw new SpecProblem(`no value can be generated for its schema (${(error as Error).message.split("\n")[0]})`);
  }
}
