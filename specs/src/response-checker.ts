import { resolveRef } from "./spec-examples.js";
import { createSpecValidator, pointerOf, type SpecValidatorOptions } from "./spec-validator.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** One exchange to judge: what was asked and what came back. */
export interface Exchange {
  readonly method: string;
  /** The concrete path, without query: `/v1/payments/pay_123`. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** The parsed JSON body, or undefined for non-JSON bodies. */
  readonly body: unknown;
}

export interface Operation {
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/** A header's text as the value its schema describes: `X-Rate-Limit: 5000` is the integer 5000. */
function headerValue(schema: Node | undefined, text: string): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== "null") : schema?.type;
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim()))
    return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  if (type === "array") return text.split(",").map((item) => item.trim());
  return text;
}

function templateRegex(template: string): RegExp {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`);
}

/**
 * Judges responses against a spec: the operation must exist, the status must be declared, the
 * content type must be one the status declares, required headers must be present and valid, and a
 * JSON body must validate against its schema. Returns the problems, empty when the exchange conforms.
 */
export function createResponseChecker(spec: object, options: SpecValidatorOptions = {}) {
  const doc = spec as Node;
  const validator = createSpecValidator(spec, options);
  // Literal templates before parameterised ones, so /v1/payments/batch never matches /v1/payments/{id}.
  const operations = Object.entries<Node>(doc.paths)
    .flatMap(([template, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({
        template,
        method: m,
        op: item[m] as Node,
        regex: templateRegex(template),
      })),
    )
    .sort((a, b) => (a.template.includes("{") ? 1 : 0) - (b.template.includes("{") ? 1 : 0));

  const find = (method: string, path: string) =>
    operations.find((o) => o.method === method.toLowerCase() && o.regex.test(path));

  function operationFor(method: string, path: string): Operation | undefined {
    const found = find(method, path);
    return (
      found && {
        operationId: found.op.operationId ?? `${method.toUpperCase()} ${found.template}`,
        method: method.toUpperCase(),
        template: found.template,
      }
    );
  }

  function check(exchange: Exchange): string[] {
    const found = find(exchange.method, exchange.path);
    if (!found) return [`${exchange.method} ${exchange.path} is not an operation of the spec`];
    const route = `${exchange.method.toUpperCase()} ${found.template}`;
    const where = found.op.operationId ? `${found.op.operationId} (${route})` : route;
    // A status may be declared exactly, by its range (`4XX`), or fall to `default`.
    const code = String(exchange.status);
    const declaredAs = [code, `${code[0]}XX`, "default"].find((key) => key in found.op.responses);
    const raw = declaredAs === undefined ? undefined : found.op.responses[declaredAs];
    if (!raw || declaredAs === undefined) {
      return [
        `${where}: status ${exchange.status} is not declared (declared: ${Object.keys(found.op.responses).join(", ")})`,
      ];
    }
    const [response, at] = resolveRef(doc, raw, ["paths", found.template, found.method, "responses", declaredAs]);
    const problems: string[] = [];
    for (const [name, header] of Object.entries<Node>(response.headers ?? {})) {
      const value = exchange.headers?.[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: required header ${name} is missing`);
        continue;
      }
      const [headerObject, headerAt] = resolveRef(doc, header, [...at, "headers", name]);
      if (headerObject.schema) {
        const [schema] = resolveRef(doc, headerObject.schema, []);
        const result = validator.validate(pointerOf(...headerAt, "schema"), headerValue(schema, value));
        for (const e of result.errors) problems.push(`${where}: header ${name} ${e}`);
      }
    }
    const declared = Object.keys(response.content ?? {});
    if (declared.length === 0) return problems;
    const mediaType = (exchange.contentType ?? "").split(";")[0]?.trim() ?? "";
    if (!declared.includes(mediaType)) {
      problems.push(
        `${where}: content type "${mediaType}" is not declared for ${exchange.status} (declared: ${declared.join(", ")})`,
      );
      return problems;
    }
    // A media type may declare only an example: there is no schema to hold the body to.
    if (mediaType.includes("json") && response.content[mediaType]?.schema !== undefined) {
      const result = validator.validate(pointerOf(...at, "content", mediaType, "schema"), exchange.body);
      for (const e of result.errors) problems.push(`${where}: ${exchange.status} body ${e}`);
    }
    return problems;
  }

  return { check, operationFor };
}

export type ResponseChecker = ReturnType<typeof createResponseChecker>;
