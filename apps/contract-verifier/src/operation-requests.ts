import { specExamples } from "@payspec/specs";
import type { AccountRef, SendOptions, VerifyContext } from "./context.js";
import type { ApiName } from "./options.js";

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
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
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

/** Every operation of a spec, in spec order. */
export function operationsOf(api: ApiName, spec: object): OperationInfo[] {
  const paths = (spec as { paths: Record<string, Record<string, { operationId?: string }>> }).paths;
  return Object.entries(paths).flatMap(([template, item]) =>
    ["get", "post", "put", "delete", "patch"]
      .filter((m) => item[m]?.operationId)
      .map((m) => ({ api, operationId: item[m]?.operationId as string, method: m.toUpperCase(), template })),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: examples are checked against the spec by the spec tests
function example(spec: object, operationId: string, part = "request"): any {
  return structuredClone(specExamples(spec).find((e) => e.operationId === operationId && e.part === part)?.value);
}

/** Today in Europe/Istanbul, the gateway's calendar. */
export function istanbulToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Istanbul" }).format(new Date());
}

function withAccounts(
  payment: Record<string, unknown>,
  pair: { from: string; to: string; currency: string } | undefined,
) {
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
      return { ...base, body: { ...example(spec, "createCardPayment"), referenceId: ctx.uuid() } };
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

/** Makes a card payment and returns its referenceId (the example's, if the provider is a mock). */
export async function paidReference(ctx: VerifyContext): Promise<string> {
  const body = { ...example(ctx.api("gateway").spec, "createCardPayment"), referenceId: ctx.uuid() };
  const reply = await ctx.send("gateway", { method: "POST", path: "/api/v1/payments/card", json: body });
  const ref = (reply.body as { response?: { referenceId?: unknown } } | undefined)?.response?.referenceId;
  return typeof ref === "string" ? ref : body.referenceId;
}

export type { AccountRef };
