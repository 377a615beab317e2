import type { IFunctionResult, RulesetFunctionContext } from "@stoplight/spectral-core";

const ERROR_SCHEMA_REF = "#/components/schemas/Error";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows one local `#/a/b` reference in the unresolved document. */
function followLocalRef(root: unknown, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== "string" || !value.$ref.startsWith("#/")) return value;
  let node: unknown = root;
  for (const part of value.$ref.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

/**
 * Every 4xx/5xx response of an operation answers with the API's own error schema, referenced as
 * `#/components/schemas/Error`, so clients can parse every failure one way.
 * Runs on the unresolved document: after resolution a `$ref` can no longer be told from a copy.
 */
export function errorResponsesUseErrorSchema(
  responses: unknown,
  _options: unknown,
  context: RulesetFunctionContext,
): IFunctionResult[] {
  if (!isObject(responses)) return [];
  const root = context.document.data;
  const problems: IFunctionResult[] = [];
  for (const [status, rawResponse] of Object.entries(responses)) {
    if (!/^[45]/.test(status)) continue;
    const response = followLocalRef(root, rawResponse);
    const content = isObject(response) ? response.content : undefined;
    if (!isObject(content) || Object.keys(content).length === 0) {
      problems.push({
        message: `${status} must have an application/json body with ${ERROR_SCHEMA_REF}.`,
        path: [...context.path, status],
      });
      continue;
    }
    for (const [mediaType, media] of Object.entries(content)) {
      const schema = isObject(media) ? media.schema : undefined;
      if (mediaType !== "application/json" || !isObject(schema) || schema.$ref !== ERROR_SCHEMA_REF) {
        problems.push({
          message: `${status} ${mediaType} must use ${ERROR_SCHEMA_REF}, the API's error shape.`,
          path: [...context.path, status],
        });
      }
    }
  }
  return problems;
}
