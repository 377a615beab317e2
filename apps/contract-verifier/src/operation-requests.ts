import { resolveRef, specExamples } from "@payspec/specs";
import { JSONSchemaFaker } from "json-schema-faker";
import type { AccountRef, SendOptions, VerifyContext } from "./context.js";
import type { ApiName } from "./options.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** A request to one operation, in parts, so checks can vary one part at a time. */
export interface OperationRequest {
  readonly api: ApiName;
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

export function toSend(
  request: OperationRequest,
  overrides: Partial<Pick<OperationRequest, "pathParams" | "query" | "body">> & { omitBody?: boolean } = {},
): SendOptions {
  const pathParams = overrides.pathParams ?? request.pathParams;
  const query = overrides.query ?? request.query;
  const path = request.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(pathParams[name] ?? ""),
  );
  // Arrays go as repeated parameters (OpenAPI's default form style, exploded): ?tag=a&tag=b.
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]): [string, string][] =>
        (Array.isArray(v) ? v : [v]).map((item) => [k, typeof item === "string" ? item : JSON.stringify(item)]),
      ),
  );
  const body = "body" in overrides ? overrides.body : request.body;
  return {
    method: request.method,
    path: `${path}${search.size ? `?${search}` : ""}`,
    ...(overrides.omitBody || body === undefined ? {} : { json: body }),
  };
}

export interface OperationInfo {
  readonly api: ApiName;
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
}

/**
 * An operation's name in check ids: its operationId made safe for `--only` and JUnit (`find pet by
 * id` → `find-pet-by-id`), or method and path when the spec gives none (`get-pets-id`).
 */
function operationName(method: string, template: string, operationId: string | undefined): string {
  const name = operationId ?? `${method}-${template}`;
  return name.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "");
}

/** Every operation of a spec, in spec order. */
export function operationsOf(api: ApiName, spec: object): OperationInfo[] {
  const paths = (spec as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths ?? {};
  return Object.entries(paths).flatMap(([template, item]) =>
    ["get", "post", "put", "delete", "patch"]
      .filter((m) => item[m])
      .map((m) => ({
        api,
        operationId: operationName(m, template, item[m]?.operationId),
        method: m.toUpperCase(),
        template,
      })),
  );
}

/** Inlines local $refs, for generators that want a self-contained schema. */
export function dereference(spec: Node, node: unknown, depth = 0): unknown {
  if (depth > 20 || typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map((n) => dereference(spec, n, depth + 1));
  const [resolved] = resolveRef(spec, node as Node, []);
  return Object.fromEntries(
    Object.entries(resolved)
      .filter(([k]) => !k.startsWith("x-"))
      .map(([k, v]) => [k, dereference(spec, v, depth + 1)]),
  );
}

/** The operation object of the spec. */
export function operationNode(spec: object, op: { template: string; method: string }): Node {
  return (spec as Node).paths[op.template][op.method.toLowerCase()];
}

/**
 * An operation's parameters, the path item's and its own, resolved, each with the JSON pointer
 * segments where it is declared (for validating against its schema).
 */
export function operationParameters(spec: object, op: { template: string; method: string }) {
  const doc = spec as Node;
  const method = op.method.toLowerCase();
  const declared: [Node, (string | number)[]][] = [
    ...(doc.paths[op.template].parameters ?? []).map((raw: Node, i: number): [Node, (string | number)[]] => [
      raw,
      ["paths", op.template, "parameters", i],
    ]),
    ...(doc.paths[op.template][method].parameters ?? []).map((raw: Node, i: number): [Node, (string | number)[]] => [
      raw,
      ["paths", op.template, method, "parameters", i],
    ]),
  ];
  return declared.map(([raw, base]) => {
    const [param, at] = resolveRef(doc, raw, base);
    return { param: param as Node, at };
  });
}

/** The JSON media type an operation's request body declares (`application/json`, `…+json`), if any. */
export function jsonMediaType(node: Node): string | undefined {
  return Object.keys(node.requestBody?.content ?? {}).find((type) => /^application\/(.+\+)?json$/.test(type));
}

/** A value for a schema: the spec's example, default or first enum value, else seeded generated data. */
function sampleOf(ctx: VerifyContext, spec: Node, holder: Node, schema: Node | undefined): unknown {
  if (holder.example !== undefined) return structuredClone(holder.example);
  const named = Object.values<Node>(holder.examples ?? {})[0];
  if (named && "value" in named) return structuredClone(named.value);
  const resolved = schema ? (resolveRef(spec, schema, [])[0] as Node) : undefined;
  if (resolved?.example !== undefined) return structuredClone(resolved.example);
  if (resolved?.default !== undefined) return structuredClone(resolved.default);
  if (Array.isArray(resolved?.enum)) return resolved.enum[0];
  if (!schema) return undefined;
  JSONSchemaFaker.option({ random: ctx.random, alwaysFakeOptionals: false, useExamplesValue: true });
  return JSONSchemaFaker.generate(dereference(spec, schema) as never);
}

/**
 * A valid request for an operation of any spec (--spec): path parameters and required query
 * parameters, and a JSON body, from the spec's examples or generated from the schemas. Without
 * knowledge of the API it cannot make the request succeed (an id may not exist), only valid.
 */
function anySpecRequest(ctx: VerifyContext, op: OperationInfo, base: OperationRequest): OperationRequest {
  const spec = ctx.api(op.api).spec as Node;
  const node = operationNode(spec, op);
  const pathParams: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const { param } of operationParameters(spec, op)) {
    if (param.in === "path") pathParams[param.name] = String(sampleOf(ctx, spec, param, param.schema));
    if (param.in === "query" && param.required) query[param.name] = sampleOf(ctx, spec, param, param.schema);
  }
  const media = jsonMediaType(node);
  const content = media ? node.requestBody.content[media] : undefined;
  return {
    ...base,
    pathParams,
    query,
    ...(content ? { body: sampleOf(ctx, spec, content, content.schema) } : {}),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: examples are checked against the spec by the spec tests
function example(spec: object, operationId: string, part = "request"): any {
  return structuredClone(specExamples(spec).find((e) => e.operationId === operationId && e.part === part)?.value);
}

/** Today in Europe/Istanbul, the gateway's calendar. */
export function istanbulToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Istanbul" }).format(new Date());
}

/** A payment made real for the workspace: between its two accounts, in their currency. */
export function withAccounts<T extends Record<string, unknown>>(
  payment: T,
  pair: { from: string; to: string; currency: string } | undefined,
): T {
  return pair ? { ...payment, from_account: pair.from, to_account: pair.to, currency: pair.currency } : payment;
}

/**
 * A valid request for each operation, from the spec's examples made real for this provider: the
 * workspace's own accounts, a fresh referenceId, an id created a moment before. Some need a
 * setup request of their own (a payment to read, to cancel, to look up).
 */
export async function validRequest(ctx: VerifyContext, op: OperationInfo): Promise<OperationRequest> {
  const base = {
    api: op.api,
    operationId: op.operationId,
    method: op.method,
    template: op.template,
    pathParams: {},
    query: {},
  };
  if (op.api === "openapi") return anySpecRequest(ctx, op, base);
  const spec = ctx.api(op.api).spec;
  switch (op.operationId) {
    case "createPayment":
      return { ...base, body: withAccounts(example(spec, "createPayment"), await ctx.accountPair()) };
    case "createPaymentBatch": {
      const pair = await ctx.accountPair();
      const body = example(spec, "createPaymentBatch");
      return { ...base, body: { payments: body.payments.map((p: Record<string, unknown>) => withAccounts(p, pair)) } };
    }
    case "getPayment":
    case "cancelPayment":
      return { ...base, pathParams: { id: await createdPaymentId(ctx) } };
    case "listPayments":
      return { ...base, query: { limit: 2 } };
    case "createCardPayment":
      return { ...base, body: cardPaymentRequest(ctx) };
    case "getPaymentByReference":
      return { ...base, pathParams: { referenceId: await paidReference(ctx) } };
    case "getDailyTransactionsReport":
      return { ...base, query: { date: istanbulToday() } };
    default:
      return base;
  }
}

/** Creates a payment to read or cancel; falls back to the spec's example id (a stateless mock). */
export async function createdPaymentId(ctx: VerifyContext): Promise<string> {
  const body = withAccounts(example(ctx.api("payments").spec, "createPayment"), await ctx.accountPair());
  const reply = await ctx.send("payments", { method: "POST", path: "/v1/payments", json: body });
  const id = (reply.body as { id?: unknown } | undefined)?.id;
  return typeof id === "string" ? id : "pay_7Hk2mQ9xR4tZ";
}

/** A valid card payment: the spec's example with a fresh referenceId. */
export function cardPaymentRequest(ctx: VerifyContext): Record<string, unknown> {
  return { ...example(ctx.api("gateway").spec, "createCardPayment"), referenceId: ctx.uuid() };
}

/** Makes a card payment and returns its referenceId (the example's, if the provider is a mock). */
export async function paidReference(ctx: VerifyContext): Promise<string> {
  const body = cardPaymentRequest(ctx);
  const reply = await ctx.send("gateway", { method: "POST", path: "/api/v1/payments/card", json: body });
  const ref = (reply.body as { response?: { referenceId?: unknown } } | undefined)?.response?.referenceId;
  return typeof ref === "string" ? ref : String(body.referenceId);
}

export type { AccountRef };
