import { pointerOf, resolveRef, specExamples } from "@payspec/specs";
import { SetupFailed, SkipCheck } from "./check-outcomes.js";
import type { AccountRef, SendOptions, VerifyContext } from "./context.js";
import { needsOwnIds, noOwnId } from "./destructive-calls.js";
import { encodeForm, FORM_MEDIA_TYPES, type FormBody, formBodyOf } from "./form-bodies.js";
import type { ApiName } from "./options.js";
import { type Direction, generateData, inlineSchema, SpecProblem } from "./schema-data.js";
import type { OperationInfo } from "./spec-operations.js";

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
  /** Header parameters the operation requires (not credentials: the run adds those). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Set when the body goes as a form (multipart or urlencoded) rather than JSON. */
  readonly form?: FormBody;
}

export function toSend(
  request: OperationRequest,
  overrides: Partial<Pick<OperationRequest, "pathParams" | "query" | "body" | "headers">> & {
    omitBody?: boolean;
  } = {},
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
  const headers: Record<string, string> = { ...(overrides.headers ?? request.headers) };
  const sent = overrides.omitBody || body === undefined ? undefined : body;
  const form = sent !== undefined && request.form ? encodeForm(sent, request.form) : undefined;
  if (form) headers["content-type"] = form.contentType;
  return {
    method: request.method,
    path: `${path}${search.size ? `?${search}` : ""}`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(form ? { raw: form.raw } : sent === undefined ? {} : { json: sent }),
  };
}

/** Inlines local $refs (cycles cut), for generators that want a self-contained schema. */
export function dereference(spec: Node, node: unknown, direction: Direction = "request"): unknown {
  return inlineSchema(spec, node, direction);
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

/** The request body media type a run makes: JSON first, then a form (multipart, urlencoded); undefined for any other. */
export function madeMediaType(node: Node): string | undefined {
  return jsonMediaType(node) ?? FORM_MEDIA_TYPES.find((type) => type in (node.requestBody?.content ?? {}));
}

/** How a value is made: from the spec's examples first, or generated with only required or with every property. */
export type Sampling = "examples" | "required" | "every-property";

/**
 * A valid value for the schema at `pointer`: the spec's example (if it is valid), else seeded
 * generated data, checked against the schema. A schema no value can be made for is a SpecProblem.
 */
export function validValue(
  ctx: VerifyContext,
  api: ApiName,
  pointer: string,
  holder: Node,
  sampling: Sampling,
  nonEmpty = false,
): unknown {
  const spec = ctx.api(api).spec as Node;
  const validator = ctx.api(api).validator;
  const schema = holder.schema as Node | undefined;
  if (!schema) return undefined;
  const valid = (value: unknown) => value !== undefined && validator.validate(pointer, value).valid;
  if (sampling === "examples") {
    const resolved = resolveRef(spec, schema, [])[0] as Node;
    const named = Object.values<Node>(holder.examples ?? {})
      .filter((e) => e && "value" in e)
      .map((e) => e.value);
    const candidates = [holder.example, ...named, resolved?.example, resolved?.default, resolved?.enum?.[0]];
    const example = candidates.find(valid);
    if (example !== undefined) return structuredClone(example);
  }
  const inlined = (keepExamples: boolean) => {
    const copy = inlineSchema(spec, schema, "request", [], keepExamples) as Node;
    // A required list parameter sent empty is no parameter at all, and an empty path segment another route.
    if (nonEmpty && copy.type === "array") copy.minItems = Math.max(1, copy.minItems ?? 0);
    if (nonEmpty && copy.type === "string") copy.minLength = Math.max(1, copy.minLength ?? 0);
    return copy;
  };
  const withExamples = inlined(true);
  const withoutExamples = inlined(false);
  let problem = "";
  let smallest: { value: unknown; size: number } | undefined;
  // Later attempts ask for less: a oneOf nested in open maps (WireMock's request patterns) rarely comes
  // out valid with every optional property filled and made-up ones added, but its smallest form does.
  for (let attempt = 0; attempt < 8; attempt++) {
    const value = generateData(
      ctx.random,
      attempt < 2 ? withExamples : withoutExamples,
      sampling === "every-property" && attempt < 6,
      { openObjects: attempt < 4 },
    );
    const result = validator.validate(pointer, value);
    if (!result.valid) {
      problem = result.errors[0] ?? "";
      continue;
    }
    const size = JSON.stringify(value)?.length ?? 0;
    if (size <= LARGE_VALUE) return value;
    if (!smallest || size < smallest.size) smallest = { value, size };
  }
  if (smallest) return smallest.value;
  throw new SpecProblem(`no valid value could be made for ${pointer.slice(1)}: generated data ${problem}`);
}

/**
 * A valid value longer than this (as JSON) is kept only when no smaller one comes out: a schema of
 * nested arrays filled three deep (Unleash's feature import) made a 720 kB body, sent with each of its
 * negative variants about 500 times a run, which cost a third of the run's CPU on both sides and
 * tested nothing a smaller valid body does not.
 */
const LARGE_VALUE = 64 * 1024;

/** The JSON pointer of an operation's request body schema. */
export function bodyPointer(op: { template: string; method: string }, media: string): string {
  return pointerOf("paths", op.template, op.method.toLowerCase(), "requestBody", "content", media, "schema");
}

/**
 * A valid request for an operation of any spec (--spec): path parameters, required query and
 * header parameters, and a JSON body, from the spec's examples or generated from the schemas
 * (`sampling`). Without knowledge of the API it cannot make the request succeed (an id may not
 * exist), only valid.
 */
export function anySpecRequest(
  ctx: VerifyContext,
  op: OperationInfo,
  base: OperationRequest,
  sampling: Sampling = "examples",
): OperationRequest {
  const spec = ctx.api(op.api).spec as Node;
  const node = operationNode(spec, op);
  const pathParams: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const { param, at } of operationParameters(spec, op)) {
    const wanted = param.in === "path" || param.required || (sampling === "every-property" && param.in === "query");
    if (!wanted || !["path", "query", "header"].includes(param.in)) continue;
    if (param.in === "path") {
      const known = serverId(ctx, op, param.name, pointerOf(...at, "schema"), param.schema);
      if (known !== undefined) {
        pathParams[param.name] = known;
        continue;
      }
    }
    const sampled = validValue(
      ctx,
      op.api,
      pointerOf(...at, "schema"),
      param,
      sampling === "examples" ? "examples" : "required",
      param.required === true,
    );
    // `style: form, explode: false` sends a list as one comma-separated value: ?status=a,b.
    const value = Array.isArray(sampled) && param.explode === false ? sampled.join(",") : sampled;
    if (param.in === "path") pathParams[param.name] = typeof value === "string" ? value : JSON.stringify(value);
    else if (param.in === "query") query[param.name] = value;
    else headers[param.name.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
  }
  const media = madeMediaType(node);
  const content = media ? node.requestBody.content[media] : undefined;
  if (node.requestBody && !media)
    ctx.unmadeBodies.add(`${op.method} ${op.template} (${Object.keys(node.requestBody.content ?? {}).join(", ")})`);
  const form =
    media && content && media !== jsonMediaType(node)
      ? formBodyOf(media, inlineSchema(spec, content.schema) as Node, content.encoding)
      : undefined;
  return {
    ...base,
    pathParams,
    query,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(content && media ? { body: validValue(ctx, op.api, bodyPointer(op, media), content, sampling) } : {}),
    ...(form ? { form } : {}),
  };
}

/**
 * The first id the server returned that the path parameter's schema accepts (see DiscoveredIds). An
 * operation that may destroy takes only an id the run made itself, and is skipped without one (unless
 * --allow-destructive): a generated id could be somebody's too.
 */
function serverId(ctx: VerifyContext, op: OperationInfo, name: string, pointer: string, schema: Node | undefined) {
  const spec = ctx.api(op.api).spec as Node;
  const type = (resolveRef(spec, schema ?? {}, [])[0] as Node | undefined)?.type;
  const own = needsOwnIds(op, ctx.deletableChildren) && !ctx.options.allowDestructive;
  for (const text of ctx.discovered.candidates(op.template, name)) {
    if (own && !ctx.discovered.made(text)) continue;
    const value = (type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    if (ctx.api(op.api).validator.validate(pointer, value).valid) {
      ctx.discovered.used.add(`${op.method} ${op.template}`);
      if (ctx.discovered.made(text)) ctx.discovered.usedMade.add(`${op.method} ${op.template}`);
      return text;
    }
  }
  if (own) {
    const reason = noOwnId(op, name, ctx.discovered.producerOf(op.template, name));
    ctx.leftAlone.set(`${op.method} ${op.template}`, reason);
    throw new SkipCheck(reason);
  }
  return undefined;
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
  // A payment that was not made leaves nothing to look up: the lookup's check cannot start, and a 404
  // from it would blame the lookup for the payment's failure.
  if (reply.status < 200 || reply.status >= 300)
    throw new SetupFailed(`the card payment to look up answered ${reply.status}, so there is no payment to look up`);
  const ref = (reply.body as { response?: { referenceId?: unknown } } | undefined)?.response?.referenceId;
  return typeof ref === "string" ? ref : String(body.referenceId);
}

export type { AccountRef };
