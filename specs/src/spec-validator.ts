import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { withDiscriminatorsApplied } from "./discriminator.js";
import { asSeenBy, directionOf } from "./read-write-only.js";

// ajv-formats is CommonJS: under both ESM and CJS the plugin is reliably found on `.default`.
const addFormats = addFormatsModule.default;

export interface SpecValidation {
  readonly valid: boolean;
  /** One line per problem: `<instance path> <message>[: what] (<keyword>)`. */
  readonly errors: readonly string[];
}

export interface SpecValidatorOptions {
  /**
   * Shows the offending value at the end of each message about a value (`, got null`), as this
   * function writes it (clipped, card data and secrets redacted: the caller knows which). Without
   * it, messages never quote a value: an API's own errors must not echo what was sent.
   */
  readonly showValue?: (value: unknown, instancePath: string) => string;
}

export interface SpecValidator {
  /** Validates `value` against the schema at `pointer` (a JSON pointer into the spec, `#/...`). */
  validate(pointer: string, value: unknown): SpecValidation;
}

const SPEC_ID = "urn:payspec:spec";

/**
 * A schema's `pattern` as ajv compiles it: in Unicode mode, as JSON Schema means it; a pattern only
 * ECMAScript's older grammar accepts (a literal brace, as in a braced GUID `^{[0-9a-fA-F]{8}-…}$`,
 * real specs have them) is compiled without the `u` flag instead of failing the whole validation.
 */
const patternRegExp = Object.assign(
  (pattern: string, flags: string): RegExp => {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      if (!flags) throw error;
      return new RegExp(pattern);
    }
  },
  { code: "patternRegExp" },
);

/** What the failing keyword was about, named: the extra property, the allowed values. */
function detail(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") {
    const name = params.additionalProperty ?? params.unevaluatedProperty;
    return typeof name === "string" ? `: ${JSON.stringify(name)}` : "";
  }
  if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
    const shown = params.allowedValues.slice(0, 10).map((v) => JSON.stringify(v));
    return `: ${shown.join(", ")}${params.allowedValues.length > 10 ? ", …" : ""}`;
  }
  if (e.keyword === "const") return `: ${JSON.stringify(params.allowedValue)}`;
  return "";
}

/** Keywords about one value (not about an object's or a list's members): their messages may show it. */
const VALUE_KEYWORDS = new Set([
  ...["type", "format", "pattern", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  ...["multipleOf", "minLength", "maxLength", "oneOf", "anyOf", "not"],
]);

/**
 * Marks a schema whose `nullable: true` the document's OpenAPI version ignores (set by whoever
 * rewrote the document to JSON Schema): the message for a `null` there says so and why.
 */
export const IGNORED_NULLABLE = "x-payspec-ignored-nullable";

/**
 * One line per problem, each naming where (the JSON pointer in the value), what (the property or the
 * allowed values) and which keyword of the schema failed: `/data/0 must NOT have additional
 * properties: "secret" (additionalProperties)`; with `showValue`, the value too (`, got null`), and
 * for a null, a `nullable` the document's version ignores.
 */
function describe(errors: readonly ErrorObject[] | null | undefined, options: SpecValidatorOptions): string[] {
  return (errors ?? []).map((e) => {
    const line = `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${detail(e)} (${e.keyword})`;
    if (!options.showValue || !VALUE_KEYWORDS.has(e.keyword)) return line;
    const ignored =
      e.data === null ? (e.parentSchema as Record<string, unknown> | undefined)?.[IGNORED_NULLABLE] : undefined;
    const why = typeof ignored === "string" ? `; nullable: true is ignored here: ${ignored}` : "";
    return `${line}, got ${options.showValue(e.data, e.instancePath)}${why}`;
  });
}

/**
 * A JSON Schema 2020-12 validator over a whole OpenAPI 3.1 document, the independent reference that
 * tests and the contract verifier hold responses and examples against (the zod packages are checked
 * against it too). Formats are enforced; a `discriminator` chooses the branch of its `oneOf`/`anyOf`,
 * as OpenAPI says; other OpenAPI-only keywords are ignored.
 */
export function createSpecValidator(spec: object, options: SpecValidatorOptions = {}): SpecValidator {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    verbose: options.showValue !== undefined,
    code: { regExp: patternRegExp },
  });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  // OpenAPI's own formats, so that any spec (not only ours) validates without unknown-format noise.
  ajv.addFormat("int32", { type: "number", validate: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: (n) => Number.isInteger(n) });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("password", true);
  // Formats a spec invents (`format: phone`, `format: currency`) describe a string, not a rule ajv knows.
  for (const name of formatsIn(spec)) if (!ajv.formats[name]) ajv.addFormat(name, true);
  const applied = withDiscriminatorsApplied(spec) as object;
  ajv.addSchema({ ...applied, $id: SPEC_ID });
  // A request body is checked against the request's copy (a required readOnly property is not asked
  // of it), a response against the response's: see read-write-only.
  let directed = true;
  try {
    ajv.addSchema({ ...asSeenBy(applied, "request"), $id: `${SPEC_ID}:request` });
    ajv.addSchema({ ...asSeenBy(applied, "response"), $id: `${SPEC_ID}:response` });
  } catch {
    // A document whose schemas carry their own `$id`s can be added once only: it is then read as one.
    directed = false;
  }
  const compiled = new Map<string, ValidateFunction>();
  return {
    validate(pointer, value) {
      let fn = compiled.get(pointer);
      if (!fn) {
        const direction = directed ? directionOf(pointer) : undefined;
        fn = ajv.compile({ $ref: `${SPEC_ID}${direction ? `:${direction}` : ""}${pointer}` });
        compiled.set(pointer, fn);
      }
      const valid = fn(value) as boolean;
      return { valid, errors: valid ? [] : describe(fn.errors, options) };
    },
  };
}

function formatsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) formatsIn(item, into);
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string") into.add(value);
      else formatsIn(value, into);
    }
  }
  return into;
}

/** `#/a/b~1c` from path segments, escaping as JSON pointers require. */
export function pointerOf(...segments: readonly (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
}
