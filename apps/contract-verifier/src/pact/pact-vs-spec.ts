import { apiOf } from "@payspec/server-kit";
import {
  cardGatewaySpec,
  createResponseChecker,
  createSpecValidator,
  paymentsAccountsSpec,
  pointerOf,
  type ResponseChecker,
  resolveRef,
  type SpecValidator,
} from "@payspec/specs";
import type { Pact, PactInteraction } from "./pact-file.js";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by whatever keys it has
type Node = Record<string, any>;

/**
 * What the consumer sends must respect every bound, unless the interaction expects the 4xx that
 * such a request earns (400 or 422: the request is wrong on purpose).
 */
const expectsRefusal = (status: number) => status === 400 || status === 422;

/** A query value as its schema reads it: `limit=10` is the integer 10. */
function queryValue(schema: Node | undefined, text: string): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== "null") : schema?.type;
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** The schema with its $ref followed, and the properties it (or any allOf/oneOf/anyOf branch) declares. */
function shapeOf(
  spec: Node,
  raw: Node | undefined,
): { schema: Node | undefined; properties: Map<string, Node>; open: boolean } {
  const [schema] = raw ? resolveRef(spec, raw, []) : [undefined];
  const properties = new Map<string, Node>();
  let open = false;
  const visit = (node: Node | undefined) => {
    const [resolved] = node ? resolveRef(spec, node, []) : [undefined];
    if (!resolved) return;
    for (const [name, property] of Object.entries<Node>(resolved.properties ?? {})) properties.set(name, property);
    if (resolved.additionalProperties !== undefined && resolved.additionalProperties !== false) open = true;
    for (const branch of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])])
      visit(branch);
  };
  visit(schema);
  return { schema, properties, open };
}

/**
 * Fields the consumer expects that the spec's response schema does not declare: a consumer relying
 * on one relies on something the provider never promised (PactFlow's bi-directional check says the
 * same). Objects that allow additional properties take any field.
 */
function undeclaredFields(spec: Node, schema: Node | undefined, value: unknown, path: string, found: string[]): void {
  if (schema === undefined || value === null || typeof value !== "object") return;
  const shape = shapeOf(spec, schema);
  if (Array.isArray(value)) {
    const items = shape.schema?.items as Node | undefined;
    for (const [i, item] of value.entries()) undeclaredFields(spec, items, item, `${path}[${i}]`, found);
    return;
  }
  if (shape.properties.size === 0 && shape.open) return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const property = shape.properties.get(key);
    if (property === undefined) {
      if (!shape.open) found.push(`spec: response body field ${path}.${key} is not in the spec`);
      continue;
    }
    undeclaredFields(spec, property, item, `${path}.${key}`, found);
  }
}

/**
 * A spec's response checker and validator, each a whole ajv over the spec, built once per spec rather
 * than once per interaction (about 50 ms each time: a pact of 200 interactions spent 10 s on it).
 */
const toolsBySpec = new WeakMap<object, { checker: ResponseChecker; validator: SpecValidator }>();
function specTools(spec: object): { checker: ResponseChecker; validator: SpecValidator } {
  let tools = toolsBySpec.get(spec);
  if (!tools) {
    tools = { checker: createResponseChecker(spec), validator: createSpecValidator(spec) };
    toolsBySpec.set(spec, tools);
  }
  return tools;
}

/**
 * Holds one interaction to the spec of the API it calls, strictly, as PactFlow's bi-directional
 * check does: the operation exists; the request's JSON body and query respect every bound (unless
 * the interaction expects the 400 such a request earns); the response status is declared, its content
 * type declared, and a JSON body has every required field and valid values. One line per
 * disagreement; none means the interaction and the spec agree.
 */
export function interactionVsSpec(interaction: PactInteraction, spec: object): string[] {
  const { checker, validator } = specTools(spec);
  const { request, response } = interaction;
  const operation = checker.operationFor(request.method, request.path);
  if (!operation) return [`spec: ${request.method} ${request.path} is not an operation of the spec`];
  const problems: string[] = [];
  const method = request.method.toLowerCase();
  if (!expectsRefusal(response.status)) {
    if (request.body !== undefined && (request.contentType ?? "application/json").includes("json")) {
      const pointer = pointerOf(
        "paths",
        operation.template,
        method,
        "requestBody",
        "content",
        "application/json",
        "schema",
      );
      for (const error of validator.validate(pointer, request.body).errors)
        problems.push(`spec: request body ${error}`);
    }
    const declared = ((spec as Node).paths[operation.template]?.[method]?.parameters ?? []) as Node[];
    const query = new URLSearchParams(request.query);
    declared.forEach((raw, index) => {
      const [parameter, at] = resolveRef(spec as Node, raw, ["paths", operation.template, method, "parameters", index]);
      if (parameter?.in !== "query") return;
      const value = query.get(parameter.name);
      if (value === null) {
        if (parameter.required) problems.push(`spec: query parameter ${parameter.name} is required`);
        return;
      }
      for (const error of validator.validate(pointerOf(...at, "schema"), queryValue(parameter.schema, value)).errors)
        problems.push(`spec: query parameter ${parameter.name} ${error.replace(/^\(root\) /, "")}`);
    });
    for (const name of query.keys()) {
      if (!declared.some((raw) => resolveRef(spec as Node, raw, [])[0]?.name === name))
        problems.push(`spec: query parameter ${name} is not declared`);
    }
  }
  // With no Content-Type, the official verifier tells the body's type from the body itself: an
  // object or a list (how pact-python 1.x writes `will_respond_with(404, body=…)`) is JSON.
  const jsonShaped = typeof response.body === "object" && response.body !== null;
  const contentType =
    response.headers["content-type"] ?? response.contentType ?? (jsonShaped ? "application/json" : null);
  // A null body expects an empty answer: there is no body to hold to the spec's schema.
  const json = contentType?.includes("json") && response.body !== null ? response.body : undefined;
  if (json !== undefined) {
    const declared = (spec as Node).paths[operation.template]?.[method]?.responses?.[String(response.status)];
    const [answer] = declared ? resolveRef(spec as Node, declared, []) : [undefined];
    const media = Object.entries<Node>(answer?.content ?? {}).find(([type]) => type.includes("json"))?.[1];
    undeclaredFields(spec as Node, media?.schema, json, "$", problems);
  }
  for (const problem of checker.check({
    method: request.method,
    path: request.path,
    status: response.status,
    contentType,
    headers: response.headers,
    body: json,
  })) {
    // A consumer that does not read a header need not list it: pacts hold what the consumer relies on.
    if (/required header \S+ is missing/.test(problem)) continue;
    problems.push(`spec: ${problem}`);
  }
  return problems;
}

/** The spec of the API an interaction calls, by its path: the gateway's (`/auth`, `/api`) or the payments API's. */
export function specFor(interaction: PactInteraction): object {
  return apiOf(interaction.request.path) === "gateway" ? cardGatewaySpec : paymentsAccountsSpec;
}

/**
 * Every interaction of a pact held to the spec of the API it calls, without a provider: one line per
 * disagreement (`consumer -> provider: "description": spec: …`); none means the pact and the specs agree.
 */
export function crossCheckPact(pact: Pact): string[] {
  return pact.interactions.flatMap((interaction) =>
    interactionVsSpec(interaction, specFor(interaction)).map(
      (problem) => `${pact.consumer} -> ${pact.provider}: "${interaction.description}": ${problem}`,
    ),
  );
}
