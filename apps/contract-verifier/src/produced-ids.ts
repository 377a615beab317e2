import { resolveRef } from "@payspec/specs";
import { SkipCheck } from "./check-outcomes.js";
import type { VerifyContext } from "./context.js";
import { needsOwnIds } from "./destructive-calls.js";
import { collectionOf } from "./discovered-ids.js";
import { NoAnswer } from "./exchange.js";
import { operationNode, toSend, validRequest } from "./operation-requests.js";
import { SpecProblem } from "./schema-data.js";
import { type OperationInfo, operationsOf } from "./spec-operations.js";

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped OpenAPI document
type Node = Record<string, any>;

/** Where a producer's answer holds the id: a runtime expression of OpenAPI's links, or the usual places. */
type Extract = (reply: { headers: Readonly<Record<string, string>>; body: unknown }) => string | undefined;

interface Producer {
  readonly op: OperationInfo;
  readonly extract: Extract;
}

/**
 * Ids made before any check for path parameters no list operation filled (RESTler's producer and
 * consumer, Schemathesis's links): the operation that creates the thing is called once, its answer's
 * id kept like a listed one. The producer is the operation whose response `links` feed the parameter,
 * else the POST to the collection the path hangs from (`POST /bookings` for `/bookings/{bookingId}`),
 * whose id is read from `Location`, then the body. Done before the checks, and the same way for a
 * check run alone, so reruns stay exact. Never in --read-only: it writes.
 */
export async function produceIds(context: VerifyContext, allowed: (op: OperationInfo) => boolean): Promise<void> {
  const spec = context.api("openapi").spec as Node;
  const operations = operationsOf("openapi", spec);
  const done = new Set<string>();
  context.beginCheck("(discovery)");
  for (const op of operations) {
    if (!allowed(op)) continue;
    for (const [, name] of op.template.matchAll(/\{([^}]+)\}/g)) {
      const parameter = name as string;
      // An operation that may destroy acts only on what the run made: a listed id is not enough for it.
      const own = needsOwnIds(op, context.deletableChildren) && !context.options.allowDestructive;
      const known = context.discovered.candidates(op.template, parameter);
      if (own ? known.some((id) => context.discovered.made(id)) : known.length > 0) continue;
      const producer = producerFor(spec, operations, op, parameter);
      if (!producer || !allowed(producer.op)) continue;
      context.discovered.tried(op.template, parameter, `${producer.op.method} ${producer.op.template}`);
      const key = `${producer.op.method} ${producer.op.template} ${parameter}`;
      if (done.has(key)) continue;
      done.add(key);
      try {
        const request = await validRequest(context, producer.op);
        const reply = await context.send("openapi", toSend(request), "(discovery)");
        if (reply.status < 200 || reply.status >= 300) continue;
        const id = producer.extract(reply);
        if (id) context.discovered.produced(op.template, parameter, id);
      } catch (error) {
        // A producer that cannot be called (no valid body, no answer) leaves the id to be generated.
        if (!(error instanceof NoAnswer) && !(error instanceof SpecProblem) && !(error instanceof SkipCheck))
          throw error;
      }
    }
  }
}

function producerFor(
  spec: Node,
  operations: OperationInfo[],
  op: OperationInfo,
  parameter: string,
): Producer | undefined {
  const target = operationNode(spec, op).operationId;
  for (const candidate of operations) {
    if (candidate.template.includes("{")) continue;
    const responses: Node = operationNode(spec, candidate).responses ?? {};
    for (const [code, raw] of Object.entries(responses)) {
      if (!/^2/.test(code)) continue;
      const response = resolveRef(spec, raw, [])[0] as Node;
      for (const link of Object.values<Node>(response?.links ?? {})) {
        const resolved = resolveRef(spec, link, [])[0] as Node;
        const expression = resolved?.parameters?.[parameter];
        if (target && resolved?.operationId === target && typeof expression === "string")
          return { op: candidate, extract: (reply) => evaluate(expression, reply) };
      }
    }
  }
  const collection = collectionOf(op.template, parameter);
  const create = operations.find((o) => o.method === "POST" && o.template.replace(/\/+$/, "") === collection);
  if (!create) return undefined;
  return {
    op: create,
    extract: (reply) => {
      const location = reply.headers.location;
      if (location) return lastSegment(location);
      const body = reply.body as Node | undefined;
      const id = body?.[parameter] ?? body?.id ?? body?.data?.id;
      return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
    },
  };
}

/** `$response.body#/id`, `$response.header.Location`: the runtime expressions a link's parameters use. */
function evaluate(expression: string, reply: { headers: Readonly<Record<string, string>>; body: unknown }) {
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) {
    const value = reply.headers[(header[1] as string).toLowerCase()];
    return value && /location/i.test(header[1] as string) ? lastSegment(value) : value;
  }
  const body = /^\$response\.body#(.*)$/.exec(expression);
  if (!body) return undefined;
  let node: unknown = reply.body;
  for (const part of (body[1] as string).split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    node = typeof node === "object" && node !== null ? (node as Node)[key] : undefined;
  }
  return typeof node === "string" || typeof node === "number" ? String(node) : undefined;
}

const lastSegment = (location: string) =>
  decodeURIComponent(location.split("?")[0]?.replace(/\/+$/, "").split("/").pop() ?? "") || undefined;
